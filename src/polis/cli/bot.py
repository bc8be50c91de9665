"""``polis bot connect``: an agent plays on a polis server through its bot API.

The bot account's API token (made on the account page of the server) goes in ``--token`` or,
kept out of the process list, in ``$POLIS_BOT_TOKEN``. The command accepts challenges, plays
every game the account is seated at (``--join`` takes an open seat first; ``--event`` enters
an event, a tournament, and plays every table it gives the bot) and keeps playing through
dropped connections and server restarts (:mod:`polis.client.runner`). It stops after
``--games`` games, once the ``--event`` is over, on Ctrl-C, or when the server refuses the
token. ``polis bot events`` lists the server's events that take entrants.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

from polis.cli.common import Command, Group, fail, user_errors
from polis.cli.extras import require
from polis.core.errors import InputError

bot = typer.Typer(
    name="bot",
    cls=Group,
    help="Put an agent on a polis server, where people and other bots play it.",
    no_args_is_help=True,
)

#: Exit code after Ctrl-C (as the shell reports a process killed by SIGINT).
INTERRUPTED = 130


@bot.command("connect", cls=Command)
def connect(
    server: Annotated[
        str, typer.Option(help="The server's address, e.g. https://polis.example.org.")
    ],
    token: Annotated[
        str | None,
        typer.Option(
            envvar="POLIS_BOT_TOKEN",
            help="The bot account's API token (better in $POLIS_BOT_TOKEN: a command line "
            "is visible to other users of the machine).",
            show_default=False,
        ),
    ] = None,
    agent: Annotated[
        str,
        typer.Option(
            help="The agent: random, easy, medium, hard, greedy, mcts:1s, montecarlo:200ms ... "
            "or module:attribute (or file.py:attribute), a factory of your own agents."
        ),
    ] = "easy",
    games: Annotated[
        int | None,
        typer.Option(min=1, help="Stop once this many games are over.", show_default="never"),
    ] = None,
    join: Annotated[
        list[str] | None,
        typer.Option(
            "--join",
            help="Take an open seat at this table first (its id; the table lets bots in).",
            show_default=False,
        ),
    ] = None,
    event: Annotated[
        str | None,
        typer.Option(
            "--event",
            help="Enter this event (its id; polis bot events lists them) and play every "
            "table it gives the bot; stop once it is over.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Play AGENT on a server through its bot API: accept challenges, play every game the
    bot account is seated at, keep playing through dropped connections and restarts.

    The agent decides from its seat's view only, as the server's own bots do.

    Example: polis bot connect --server http://localhost:8000 --agent mcts:1s --games 10
    """
    with user_errors():
        require("polis bot connect", [("httpx", "httpx")])
        if not token:
            raise InputError(
                "the bot account's API token: --token, or $POLIS_BOT_TOKEN (made on the "
                "server's account page)"
            )
        if not server.startswith(("http://", "https://")):
            raise InputError(f"--server {server}: an address starting http:// or https://")
        from polis.client import AgentMaker, ApiError, BotClient, BotRunner

        maker = AgentMaker(agent)
    with BotClient(server, token) as client:
        runner = BotRunner(client, maker, games=games, event=event, say=typer.echo)
        if event is not None:
            try:
                typer.echo(runner.enter_event())
            except ApiError as exc:
                fail(f"--event {event}: {exc.message}")
            except OSError as exc:
                fail(f"--event {event}: no answer from {server} ({exc})")
        for table in join or ():
            try:
                seat = client.take_seat(table)
            except ApiError as exc:
                fail(f"--join {table}: {exc.message}")
            except OSError as exc:
                fail(f"--join {table}: no answer from {server} ({exc})")
            runner.taken.add(table)
            typer.echo(f"took seat {seat + 1} at table {table}")
        with stopped_by_ctrl_c(runner.stop):
            played = runner.run()
    if runner.refused is not None:
        fail(f"{server} refused the token: {runner.refused.message}")
    typer.echo(f"{played} game(s) played to the end")
    if games is not None and played < games and not runner.event_done:
        raise typer.Exit(INTERRUPTED)


@bot.command("events", cls=Command)
def events(
    server: Annotated[
        str, typer.Option(help="The server's address, e.g. https://polis.example.org.")
    ],
) -> None:
    """List the server's events that take entrants (and those under way): the id to give
    polis bot connect --event, the game, the format and the start.

    Example: polis bot events --server http://localhost:8000
    """
    with user_errors():
        require("polis bot events", [("httpx", "httpx")])
        if not server.startswith(("http://", "https://")):
            raise InputError(f"--server {server}: an address starting http:// or https://")
        import httpx

    try:
        response = httpx.get(f"{server.rstrip('/')}/api/events", timeout=30)
        response.raise_for_status()
        listed = response.json()
    except (httpx.HTTPError, ValueError) as exc:
        fail(f"{server}: no list of events ({exc})")
    for key, heading in (("upcoming", "taking entrants"), ("running", "under way")):
        typer.echo(f"{heading}:")
        found = listed.get(key) or []
        for e in found:
            starts = (
                "started by its creator"
                if e.get("starts") is None
                else time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(e["starts"]))
            )
            rounds = f"{e['rounds']} rounds" if e.get("rounds") else "rounds as needed"
            typer.echo(
                f"  {e['id']}  {e['name']}: {e['game']} {e['mode']}, {e['players']} a table, "
                f"{e['format'].replace('_', ' ')}, {rounds}, {e['entrants']} entered; "
                f"{starts if key == 'upcoming' else 'round ' + str(e.get('round'))}"
            )
        if not found:
            typer.echo("  none")


@contextmanager
def stopped_by_ctrl_c(stop: Callable[[], None]) -> Iterator[None]:
    """Ctrl-C calls ``stop`` (the games under way end their turn cleanly) instead of raising
    in the middle of a move; only where signals can be caught (the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, lambda *_: stop())
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def register(app: typer.Typer) -> None:
    """Add the ``bot`` commands to the ``polis`` app."""
    app.add_typer(bot, name="bot")
