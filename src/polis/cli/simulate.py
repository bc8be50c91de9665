"""``polis simulate``: many random games, a JSON summary, optionally every record.

A long run shows a progress bar on a terminal (stderr), and Ctrl-C prints the summary of the
games finished so far (``"interrupted": true``) before it stops with exit code 130.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from polis.cli.common import (
    echo_json,
    example_game,
    game_help,
    games_bar,
    mode_default,
    mode_help,
    user_errors,
    write_json_atomic,
)
from polis.core.match import derive_seed, play_match, random_seat
from polis.core.protocol import Game
from polis.core.registry import get_game

#: Exit code after Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130

#: Called after every game with the number finished and the number asked for.
Progress = Callable[[int, int], None]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run; ``summary`` covers the games finished before it."""

    def __init__(self, summary: dict[str, Any]) -> None:
        super().__init__()
        self.summary = summary


def run_random_games(
    game: Game,
    mode: str,
    players: int,
    games: int,
    seed: int,
    records: Path | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play ``games`` random games; return the summary printed by ``polis simulate``.

    Game ``i`` is dealt from ``derive_seed(seed, "deal", i)`` and played with moves drawn from
    ``derive_seed(seed, "moves", i)`` (:mod:`polis.core.match`). Ctrl-C raises
    :class:`Interrupted` with the summary of the games finished.
    """
    score_sums = [0] * players
    win_sums = [0.0] * players
    moves = done = 0
    start = time.perf_counter()

    def summary() -> dict[str, Any]:
        seconds = time.perf_counter() - start
        out = {
            "game": game.name,
            "mode": mode,
            "players": players,
            "games": done,
            "seed": seed,
            "seconds": round(seconds, 4),
            "games_per_second": round(done / seconds, 2) if seconds else None,
            "moves": moves,
            "moves_per_second": round(moves / seconds, 1) if seconds else None,
            "mean_score": [round(s / done, 3) for s in score_sums] if done else [],
            "win_share": [round(w / done, 4) for w in win_sums] if done else [],
        }
        if done < games:
            out |= {"interrupted": True, "games_asked": games}
        return out

    try:
        for index in range(games):
            setup_seed = derive_seed(seed, "deal", index)
            state = game.new_game(mode, players, seed=setup_seed)
            rng = random.Random(derive_seed(seed, "moves", index))
            play_match(state, [random_seat(rng)] * players)
            result = state.result()
            if records is not None:
                record = state.to_record(names=["bot:random"] * players, seed=setup_seed)
                name = f"{game.name}-{mode}-{players}p-{index:05d}.json"
                write_json_atomic(records / name, record)
            moves += len(state.history)
            for p in range(players):
                score_sums[p] += result.scores[p]
            for p, share in enumerate(result.win_shares()):
                win_sums[p] += share
            done += 1
            if progress is not None:
                progress(done, games)
    except KeyboardInterrupt:
        raise Interrupted(summary()) from None
    return summary()


def _bar(stack: ExitStack, err: Console, games: int) -> Progress:
    """A progress bar of the games on the terminal (closed with ``stack``)."""
    done = games_bar(stack, err, games)
    return lambda finished, total: done(finished)


def simulate(
    game: Annotated[str, typer.Argument(help=game_help())],
    mode: Annotated[str, typer.Option(help=mode_help(), show_default=mode_default())] = "",
    players: Annotated[int, typer.Option(min=2, max=4, help="Number of players.")] = 4,
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    records: Annotated[
        Path | None, typer.Option(help="Folder to write every game record to.")
    ] = None,
) -> None:
    """Play random games and print a JSON summary (speed, mean score and win share by seat).

    A progress bar shows on a terminal; Ctrl-C prints the summary of the games finished so
    far.
    """
    err = Console(stderr=True)
    with user_errors(), ExitStack() as stack:
        engine = get_game(game)
        chosen = mode or engine.default_mode
        engine.check_table(chosen, players)
        show = _bar(stack, err, games) if err.is_terminal else None
        try:
            summary = run_random_games(engine, chosen, players, games, seed, records, show)
        except Interrupted as stop:
            stack.close()  # the bar first, then the summary
            echo_json(stop.summary)
            err.print(
                f"interrupted: the summary covers the {stop.summary['games']} of {games} "
                "games finished",
                highlight=False,
                markup=False,
                soft_wrap=True,
            )
            raise typer.Exit(INTERRUPTED) from None
    echo_json(summary)


def register(app: typer.Typer) -> None:
    g = example_game()
    example = (
        f"polis simulate {g.name} --mode {g.default_mode} --players 4 --games 100 --records out/"
    )
    app.command(help=f"{simulate.__doc__}\n\nExample: {example}")(simulate)
