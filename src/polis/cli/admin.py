"""``polis admin``: what the operator of a server does about people: read the chat lines
reported, mark them handled, suspend an account or lift its suspension; and schedule an
event (a tournament) that starts by itself.

The commands work on the store itself (the database ``polis serve`` keeps its games in, found
the same way: ``--db``, else ``$POLIS_DB``, else the SQLite file in the user data directory),
so they need no running server and act on every server process sharing that database at
once. A store that ``polis serve`` has not yet upgraded to this version is refused with the
line that says so, never changed.
"""

from __future__ import annotations

from datetime import UTC
from pathlib import Path
from typing import Annotated, Any

import typer

from polis.cli.common import Command, Group, fail, user_errors
from polis.cli.extras import SERVER, require
from polis.core.errors import InputError

admin = typer.Typer(
    name="admin",
    cls=Group,
    help="Run a server: reported chat lines, suspended accounts, scheduled events.",
    no_args_is_help=True,
)

DbOption = Annotated[
    str | None,
    typer.Option(
        help="Database URL: sqlite:///games.db or postgresql://user:pw@host/db.",
        show_default="as polis serve: $POLIS_DB, or the SQLite file in the user data directory",
    ),
]


def open_store(db: str | None) -> Any:
    """An engine on the server's database, checked: the ``server`` extra installed, the
    database reachable, polis's and at this version's revision (InputError otherwise)."""
    require("polis admin", SERVER)
    from sqlalchemy import create_engine, make_url

    from polis.cli.serve import check_database, needed
    from polis.server.store import migrate
    from polis.server.store.games import default_db_url, normalise_url

    url = db or default_db_url()
    require("polis admin --db postgresql://...", needed(url, None, None))
    try:
        parsed = make_url(url)
    except Exception:
        parsed = None
    if parsed is not None and parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        a_file = database and database != ":memory:" and not database.startswith("file:")
        if a_file and not Path(database).expanduser().is_file():  # opening it would make it
            raise InputError(f"--db {url}: no such file (polis serve makes it)")
    shown = check_database(url)
    engine = create_engine(normalise_url(url))
    with engine.connect() as conn:
        revision = migrate.current(conn)
    if revision != migrate.head():
        engine.dispose()
        if revision is None:
            raise InputError(f"{shown} holds no polis games (polis serve --db makes them)")
        raise InputError(
            f"{shown} is at revision {revision}, not this polis's {migrate.head()}: "
            f"run polis serve on it once (it upgrades the store)"
        )
    return engine


def _when(value: Any) -> str:
    if value.tzinfo is None:  # SQLite gives the stored UTC time back without its zone
        value = value.replace(tzinfo=UTC)
    return str(value.astimezone(UTC).strftime("%Y-%m-%d %H:%M"))


@admin.command("reports", cls=Command)
def reports(
    every: Annotated[bool, typer.Option("--all", help="Also the reports marked handled.")] = False,
    db: DbOption = None,
) -> None:
    """List the reported chat lines not yet handled (the oldest first): the report's id,
    when, who reported it, the account that held the seat, the game, the line as it was said
    and the reason.

    Example: polis admin reports --db sqlite:///games.db
    """
    with user_errors():
        engine = open_store(db)
    from rich.console import Console
    from rich.table import Table

    from polis.server.store import accounts as rows

    try:
        found = rows.reports(engine, include_handled=every)
    finally:
        engine.dispose()
    out = Console()
    if not found:
        out.print("no reports" if every else "no open reports", markup=False, highlight=False)
        return
    plain = not out.is_terminal or out.no_color
    if not out.is_terminal:
        out.width = 200
    table = Table(box=None, show_edge=False, pad_edge=False, header_style="") if plain else Table()
    columns = ["id", "when", "reporter", "account", "game", "line", "reason"]
    if every:
        columns.append("handled")
    for name in columns:
        table.add_column(name, overflow="fold")
    for r in found:
        cells = [
            str(r["id"]),
            _when(r["created"]),
            r["reporter"],
            r["account"] or "(guest)",
            f"{r['game_id']} #{r['chat_id']}",
            f"{r['name']}: {r['text']}",
            r["reason"],
        ]
        if every:
            cells.append("yes" if r["handled"] else "no")
        table.add_row(*cells)
    out.print(table, markup=False, highlight=False)


@admin.command("handled", cls=Command)
def handled(
    report: Annotated[int, typer.Argument(help="The report's id (polis admin reports).")],
    db: DbOption = None,
) -> None:
    """Mark a report handled: it leaves the list of open reports.

    Example: polis admin handled 12
    """
    with user_errors():
        engine = open_store(db)
    from polis.server.store import accounts as rows

    try:
        done = rows.mark_handled(engine, report)
    finally:
        engine.dispose()
    if not done:
        fail(f"no report has the id {report}")
    typer.echo(f"report {report} handled")


@admin.command("suspend", cls=Command)
def suspend(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    lift: Annotated[bool, typer.Option("--lift", help="Lift the suspension instead.")] = False,
    db: DbOption = None,
) -> None:
    """Suspend an account: it is signed out everywhere at once, cannot sign in, leaves the
    leaderboards and its challenges close; its games stay. --lift lets it sign in again.

    Example: polis admin suspend mallory
    """
    with user_errors():
        engine = open_store(db)
    from polis.server.store import accounts as rows

    try:
        account = rows.set_suspended(engine, name, not lift)
        if account is not None and not lift:
            rows.close_challenges(engine, account.id)
    finally:
        engine.dispose()
    if account is None:
        fail(f"no account is called {name!r}")
    if lift:
        typer.echo(f"{account.name}: suspension lifted (it may sign in again)")
    else:
        typer.echo(f"{account.name}: suspended and signed out everywhere")


@admin.command("event", cls=Command)
def event(
    name: Annotated[str, typer.Argument(help="The event's name, as its page shows it.")],
    game: Annotated[str, typer.Option(help="A game the server serves.")],
    starts: Annotated[
        str, typer.Option(help="When it starts by itself: ISO 8601 with its time zone.")
    ],
    mode: Annotated[str | None, typer.Option(help="The game's mode (default: its first).")] = None,
    players: Annotated[int, typer.Option(help="Players per table, 2 to 4.")] = 2,
    format: Annotated[
        str, typer.Option("--format", help="swiss, or round_robin (everyone meets everyone).")
    ] = "swiss",
    rounds: Annotated[
        int | None, typer.Option(help="A Swiss event's rounds, 1 to 20 (default 3).")
    ] = None,
    rated: Annotated[bool, typer.Option("--rated", help="Its games are rated.")] = False,
    away_limit: Annotated[
        float | None,
        typer.Option(help="Seconds a player may be away on their turn (default 300)."),
    ] = None,
    db: DbOption = None,
) -> None:
    """Schedule an event (a tournament) that anyone signed in may join until it starts by
    itself; it prints the event's id (its page is #/event/ID). Rounds are paired by the
    server; tables have no clock, and a bot replaces a player away past the limit.

    Example: polis admin event "Winter cup" --game GAME --starts 2026-12-01T18:00Z
    """
    import time
    from datetime import datetime

    from polis.core.registry import load_game
    from polis.server.errors import ServerError
    from polis.server.events import runner
    from polis.server.http.routes.standins import LONGEST, TableRulesIn
    from polis.server.store import events as rows

    with user_errors():
        found = load_game(game)
        name = name.strip()
        if not 0 < len(name) <= 60:
            raise InputError("an event's name has 1 to 60 characters")
        try:
            when = datetime.fromisoformat(starts)
        except ValueError:
            raise InputError(f"--starts {starts!r}: not an ISO 8601 time") from None
        if when.tzinfo is None:
            raise InputError(f"--starts {starts!r}: give its time zone (for example Z)")
        if format == "swiss" and rounds is None:
            rounds = 3
        if away_limit is not None and not 1 <= away_limit <= LONGEST:
            raise InputError(f"--away-limit is 1 to {LONGEST:.0f} seconds")
        rules = TableRulesIn(away_limit=away_limit)
        try:
            mode_, seats = runner.checked(
                found,
                mode or found.modes[0],
                players,
                rules,
                format,
                rounds,
                when.timestamp(),
                time.time(),
            )
        except ServerError as exc:
            raise InputError(exc.message) from None
        values = runner.row_values(
            name=name,
            game=found.name,
            mode=mode_,
            players=seats,
            rules=rules,
            rated=rated,
            format=format,
            starts=when.timestamp(),
            rounds=rounds,
            creator_id=None,
        )
        engine = open_store(db)
    try:
        rows.add_event(engine, **values)
    finally:
        engine.dispose()
    typer.echo(values["id"])


def register(app: typer.Typer) -> None:
    """Add the ``admin`` commands to the ``polis`` app."""
    app.add_typer(admin, name="admin")
