"""``polis arena``: a tournament between agents, with progress, a results table and JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from polis.cli.common import example_game, game_help, mode_help, user_errors


def _table(summary: dict[str, Any]) -> Any:
    from rich.table import Table

    table = Table(
        title=f"{summary['game']} {summary['mode']}, {summary['players']} players, "
        f"{summary['games']} games, seed {summary['seed']}"
    )
    for name in (
        "agent",
        "games",
        "wins",
        "win share (95% CI)",
        "mean rank (95% CI)",
        "mean score",
        "margin",
        "rating",
        "s/move",
        "iter/s",
    ):
        table.add_column(name, justify="left" if name == "agent" else "right")
    for row in summary["agents"]:
        lo, hi = row["win_share_ci"]
        rlo, rhi = row["mean_rank_ci"]
        table.add_row(
            row["agent"],
            str(row["games"]),
            f"{row['wins']:g}",
            f"{row['win_share']:.3f} [{lo:.2f}, {hi:.2f}]",
            f"{row['mean_rank']:.2f} [{rlo:.2f}, {rhi:.2f}]",
            f"{row['mean_score']:.1f}",
            f"{row['mean_margin']:+.1f}",
            f"{row['rating']:.1f} ± {row['rating_sigma']:.1f}",
            f"{row['seconds_per_move']:.3f}" if row["seconds_per_move"] is not None else "-",
            f"{row['iterations_per_second']:.0f}" if row["iterations_per_second"] else "-",
        )
    return table


def arena(
    game: Annotated[str, typer.Argument(help=game_help())],
    agents: Annotated[
        str,
        typer.Option(
            help="Comma-separated agent specs name[:budget]: random, greedy, montecarlo, mcts, "
            "easy, medium, hard; budget like 1s, 200ms or 500i (iterations)."
        ),
    ],
    mode: Annotated[str, typer.Option(help=mode_help())] = "",
    players: Annotated[int, typer.Option(help="Number of players (2-4).")] = 2,
    games: Annotated[int, typer.Option(help="Number of games.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    workers: Annotated[int, typer.Option(help="Local worker processes.")] = 1,
    ray: Annotated[
        str | None,
        typer.Option("--ray", help="'local' for Ray on this machine, or a cluster address."),
    ] = None,
    records: Annotated[
        Path | None, typer.Option(help="Folder to write every game record to.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Run a tournament: seats rotate fairly, games run in parallel, results with 95% CIs."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from polis.arena.runner import Tournament, run_tournament
    from polis.core.registry import load_game

    with user_errors():
        specs = tuple(s.strip() for s in agents.split(",") if s.strip())
        chosen_mode = mode or load_game(game).default_mode
        tournament = Tournament(game, chosen_mode, players, specs, games, seed)
        tournament.check()
        err = Console(stderr=True)
        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            transient=True,
        ) as bar:
            task = bar.add_task("games", total=games)
            summary = run_tournament(
                tournament,
                workers=max(1, workers),
                ray_address=ray,
                records=records,
                progress=lambda outcome, done, total: bar.update(task, completed=done),
            )
    if as_json:
        typer.echo(json.dumps(summary, ensure_ascii=False))
    else:
        out = Console()
        if not out.is_terminal:  # pipes and files get the whole table, not 80 columns
            out.width = 160
        out.print(_table(summary))


def register(app: typer.Typer) -> None:
    """Add the ``arena`` command to the ``polis`` app."""
    g = example_game()
    example = (
        f"polis arena {g.name} --mode {g.default_mode} --players 2 "
        "--agents greedy,mcts:1s --games 20"
    )
    app.command("arena", help=f"{arena.__doc__}\n\nExample: {example}")(arena)
