"""``polis arena``: a tournament between agents, with progress, a results table and JSON."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from polis.cli.common import (
    example_game,
    game_help,
    games_bar,
    mode_default,
    mode_help,
    user_errors,
)
from polis.cli.extras import OPENSKILL, RAY, require

#: Exit code after Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"


def _num(value: float | None, spec: str) -> str:
    """``value`` formatted, or ``-`` when there is none (an agent that played no game)."""
    return "-" if value is None else format(value, spec)


#: The columns of the table: the heading, its alignment, and the value from a summary row.
Column = tuple[str, str, Callable[[dict[str, Any]], str]]


def _share(row: dict[str, Any]) -> str:
    lo, hi = row["win_share_ci"]
    share = row["win_share"]
    return "-" if share is None else f"{share:.3f} [{lo:.2f}, {hi:.2f}]"


def _rank(row: dict[str, Any]) -> str:
    rlo, rhi = row["mean_rank_ci"]
    rank = row["mean_rank"]
    return "-" if rank is None else f"{rank:.2f} [{_num(rlo, '.2f')}, {_num(rhi, '.2f')}]"


COLUMNS: tuple[Column, ...] = (
    ("agent", "left", lambda row: str(row["agent"])),
    ("games", "right", lambda row: str(row["games"])),
    ("wins", "right", lambda row: f"{row['wins']:g}"),
    ("win share (95% CI)", "right", _share),
    ("mean rank (95% CI)", "right", _rank),
    ("mean score", "right", lambda row: _num(row["mean_score"], ".1f")),
    ("margin", "right", lambda row: _num(row["mean_margin"], "+.1f")),
    ("rating", "right", lambda row: f"{row['rating']:.1f} ± {row['rating_sigma']:.1f}"),
    ("s/move", "right", lambda row: _num(row["seconds_per_move"], ".3f")),
    (
        "iter/s",
        "right",
        lambda row: f"{row['iterations_per_second']:.0f}" if row["iterations_per_second"] else "-",
    ),
    (
        "iter/move",
        "right",
        lambda row: f"{row['iterations_per_move']:.0f}" if row.get("iterations_per_move") else "-",
    ),
)
#: The columns that fit 80 columns with an agent name of 16 characters (``--wide``: all).
NARROW = ("agent", "games", "win share (95% CI)", "mean score", "rating")


def _title(summary: dict[str, Any]) -> str:
    return (
        f"{summary['game']} {summary['mode']}, {summary['players']} players, "
        f"{_games(summary['games'])}, seed {summary['seed']}"
    )


def _table(summary: dict[str, Any], wide: bool = False, plain: bool = False) -> Any:
    """The results: the :data:`NARROW` columns (all with ``wide``); ``plain``: no box
    drawing and no styles, for pipes, files and ``NO_COLOR``."""
    from rich.table import Table

    columns = [c for c in COLUMNS if wide or c[0] in NARROW]
    if plain:  # the title is a line of its own (a table's is padded to its width)
        table = Table(box=None, show_edge=False, pad_edge=False, header_style="")
    else:
        table = Table(title=_title(summary))
    for name, justify, _ in columns:
        table.add_column(name, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for row in summary["agents"]:
        table.add_row(*(cell(row) for _, _, cell in columns))
    return table


def _clock(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes}:{secs:02d}"


def line_progress(err: Console, specs: tuple[str, ...]) -> Callable[[Any, int, int], None]:
    """One line per finished game with an estimate of the time left: progress that a log
    file or a CI job shows (a bar needs a terminal)."""
    start = time.perf_counter()

    def report(outcome: Any, done: int, total: int) -> None:
        spent = time.perf_counter() - start
        left = spent / done * (total - done)
        scores = ", ".join(
            f"{specs[who]} {score}"
            for who, score in zip(outcome.lineup, outcome.scores, strict=True)
        )
        err.print(
            f"game {done}/{total} done (#{outcome.index}: {scores}); "
            f"{_clock(spent)} elapsed, about {_clock(left)} left",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )

    return report


def _bar(stack: ExitStack, err: Console, games: int) -> Callable[[Any, int, int], None]:
    """A progress bar of the games on the terminal (closed with ``stack``)."""
    done = games_bar(stack, err, games)
    return lambda outcome, finished, total: done(finished)


def _fairness_note(specs: tuple[str, ...], players: int, games: int, seed: int) -> str | None:
    """Say so when the games cannot be shared out evenly between the agents."""
    from polis.arena.schedule import balanced, balanced_step, schedule, seats_per_spec

    if balanced(len(specs), players, games):
        return None
    counts = seats_per_spec(schedule(seed, len(specs), players, games), len(specs))
    shares = ", ".join(f"{spec} {n}" for spec, n in zip(specs, counts, strict=True))
    step = balanced_step(len(specs), players)
    return (
        f"note: {_games(games)} of {players} seats cannot be shared out evenly between "
        f"{len(specs)} agents; games per agent: {shares}. Use a multiple of {step} games "
        "for equal counts."
    )


def arena(
    game: Annotated[str, typer.Argument(help=game_help())],
    agents: Annotated[
        str,
        typer.Option(
            help="Comma-separated agent specs name[:budget]: random, greedy, montecarlo, mcts, "
            "easy, medium, hard (mcts-python, montecarlo-python: the searches without the "
            "compiled engine); budget like 1s, 200ms or 500i (iterations)."
        ),
    ],
    mode: Annotated[str, typer.Option(help=mode_help(), show_default=mode_default())] = "",
    players: Annotated[int, typer.Option(help="Number of players (2-4).")] = 2,
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="Local worker processes.")] = 1,
    ray: Annotated[
        str | None,
        typer.Option("--ray", help="'local' for Ray on this machine, or a cluster address."),
    ] = None,
    records: Annotated[
        Path | None, typer.Option(help="Folder to write every game record to.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    wide: Annotated[
        bool,
        typer.Option(
            "--wide",
            help="Every column (mean rank, margin, speed): wider than 80 columns.",
        ),
    ] = False,
) -> None:
    """Run a tournament: seats rotate fairly, games run in parallel, results with 95% CIs.

    Progress goes to stderr: a bar on a terminal, otherwise one line per finished game with
    the time left. A time budget (mcts:1s) is spent on every move, so such runs take minutes.
    The table fits 80 columns (--wide: every column); off a terminal or with NO_COLOR it is
    plain text.
    """
    with user_errors():  # first, before anything is played
        require("polis arena", (OPENSKILL, RAY) if ray else (OPENSKILL,))
    from polis.arena.runner import Tournament, run_tournament
    from polis.core.registry import load_game

    err = Console(stderr=True)
    done = 0
    with user_errors(), ExitStack() as stack:
        specs = tuple(s.strip() for s in agents.split(",") if s.strip())
        chosen_mode = mode or load_game(game).default_mode
        tournament = Tournament(game, chosen_mode, players, specs, games, seed)
        tournament.check()
        note = _fairness_note(specs, players, games, seed)
        if note:
            err.print(note, highlight=False, markup=False, soft_wrap=True)
        show = _bar(stack, err, games) if err.is_terminal else line_progress(err, specs)

        def progress(outcome: Any, finished: int, total: int) -> None:
            nonlocal done
            done = finished
            show(outcome, finished, total)

        try:
            summary = run_tournament(
                tournament, workers=workers, ray_address=ray, records=records, progress=progress
            )
        except KeyboardInterrupt:
            stack.close()  # the bar first, then the message
            err.print(
                f"interrupted: stopped after {done} of {games} games, workers stopped; no results",
                highlight=False,
                markup=False,
                soft_wrap=True,
            )
            raise typer.Exit(INTERRUPTED) from None
    if as_json:
        typer.echo(json.dumps(summary, ensure_ascii=False))
    else:
        out = Console()
        plain = not out.is_terminal or out.no_color
        if not out.is_terminal:  # pipes and files: 80 columns, the whole width with --wide
            out.width = 200 if wide else 80
        if plain:
            out.print(_title(summary), markup=False, highlight=False)
        out.print(_table(summary, wide, plain))


def register(app: typer.Typer) -> None:
    """Add the ``arena`` command to the ``polis`` app."""
    g = example_game()
    example = (
        f"polis arena {g.name} --mode {g.default_mode} --players 2 "
        "--agents greedy,mcts:1s --games 20"
    )
    app.command("arena", help=f"{arena.__doc__}\n\nExample: {example}")(arena)
