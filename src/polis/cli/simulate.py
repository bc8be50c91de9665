"""``polis simulate``: many random games, a JSON summary, optionally every record."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from polis.cli.common import (
    echo_json,
    example_game,
    game_help,
    mode_default,
    mode_help,
    user_errors,
    write_json_atomic,
)
from polis.core.match import derive_seed, play_match, random_seat
from polis.core.protocol import Game
from polis.core.registry import get_game


def run_random_games(
    game: Game, mode: str, players: int, games: int, seed: int, records: Path | None = None
) -> dict[str, Any]:
    """Play ``games`` random games; return the summary printed by ``polis simulate``.

    Game ``i`` is dealt from ``derive_seed(seed, "deal", i)`` and played with moves drawn from
    ``derive_seed(seed, "moves", i)`` (:mod:`polis.core.match`).
    """
    score_sums = [0] * players
    win_sums = [0.0] * players
    moves = 0
    start = time.perf_counter()
    for index in range(games):
        setup_seed = derive_seed(seed, "deal", index)
        state = game.new_game(mode, players, seed=setup_seed)
        rng = random.Random(derive_seed(seed, "moves", index))
        play_match(state, [random_seat(rng)] * players)
        moves += len(state.history)
        result = state.result()
        for p in range(players):
            score_sums[p] += result.scores[p]
        for p, share in enumerate(result.win_shares()):
            win_sums[p] += share
        if records is not None:
            record = state.to_record(names=["bot:random"] * players, seed=setup_seed)
            write_json_atomic(records / f"{game.name}-{mode}-{players}p-{index:05d}.json", record)
    seconds = time.perf_counter() - start
    return {
        "game": game.name,
        "mode": mode,
        "players": players,
        "games": games,
        "seed": seed,
        "seconds": round(seconds, 4),
        "games_per_second": round(games / seconds, 2) if seconds else None,
        "moves": moves,
        "moves_per_second": round(moves / seconds, 1) if seconds else None,
        "mean_score": [round(s / games, 3) for s in score_sums] if games else [],
        "win_share": [round(w / games, 4) for w in win_sums] if games else [],
    }


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
    """Play random games and print a JSON summary (speed, mean score and win share by seat)."""
    with user_errors():
        engine = get_game(game)
        summary = run_random_games(
            engine, mode or engine.default_mode, players, games, seed, records
        )
    echo_json(summary)


def register(app: typer.Typer) -> None:
    g = example_game()
    example = (
        f"polis simulate {g.name} --mode {g.default_mode} --players 4 --games 100 --records out/"
    )
    app.command(help=f"{simulate.__doc__}\n\nExample: {example}")(simulate)
