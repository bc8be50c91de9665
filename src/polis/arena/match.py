"""Play one game between agents; the function every worker (process or Ray task) runs.

Each agent gets only its seat's view and the legal moves (the match loop of
:mod:`polis.core.match`); the state stays here.
"""

from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from polis.arena.schedule import Seating
from polis.bots.agent import Agent, agent_seat
from polis.bots.factory import parse_agent_spec
from polis.bots.knowledge import warm_game
from polis.core.match import Seat, Turn, play_match
from polis.core.registry import load_game


@functools.cache
def _warmed(game_name: str) -> None:
    """Warm the game once per worker process, so that no agent's first move pays for
    loading (or compiling) the compiled engine inside its budget."""
    warm_game(load_game(game_name))


@dataclass(slots=True)
class Outcome:
    """What a finished game tells the statistics (plain data: it crosses process borders)."""

    index: int
    lineup: tuple[int, ...]
    scores: tuple[int, ...]
    ranks: tuple[float, ...]
    win_shares: tuple[float, ...]
    ranking: tuple[tuple[int, ...], ...]
    moves: int
    #: Per seat: [moves decided, seconds thinking, search iterations, longest move in s,
    #: seconds of CPU time thinking] (a time budget counts CPU time: polis.bots.budget).
    effort: list[list[float]] = field(default_factory=list)
    record_path: str | None = None


def play_table(
    game_name: str,
    mode: str,
    players: int,
    specs: list[str],
    table: Seating,
    records: str | None = None,
) -> Outcome:
    """Play ``table`` to the end; write its record into the folder ``records`` if given."""
    game = load_game(game_name)
    _warmed(game_name)
    parsed = [parse_agent_spec(s) for s in specs]
    seat_specs = [parsed[i] for i in table.lineup]
    agents: list[Agent] = [
        sp.make(seed) for sp, seed in zip(seat_specs, table.agent_seeds, strict=True)
    ]
    effort = [[0.0, 0.0, 0.0, 0.0, 0.0] for _ in range(players)]

    def timed(seat: int) -> Seat:
        choose = agent_seat(agents[seat], seat_specs[seat].budget, game)

        def play(turn: Turn) -> Any:
            start, cpu = time.perf_counter(), time.thread_time()
            move = choose(turn)
            spent = time.perf_counter() - start
            row = effort[seat]
            row[0] += 1
            row[1] += spent
            row[3] = max(row[3], spent)
            row[4] += time.thread_time() - cpu
            return move

        return play

    state = game.new_game(mode, players, seed=table.setup_seed)
    play_match(state, [timed(seat) for seat in range(players)])
    for seat, agent in enumerate(agents):
        stats = getattr(agent, "stats", None)
        if stats is not None:
            effort[seat][2] = float(stats.iterations)
    result = state.result()
    record_path = None
    if records is not None:
        names = [f"bot:{sp.text}" for sp in seat_specs]
        record = state.to_record(names=names, seed=table.setup_seed)
        path = Path(records) / f"{game.name}-{mode}-{players}p-{table.index:05d}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8")
        record_path = str(path)
    return Outcome(
        index=table.index,
        lineup=table.lineup,
        scores=tuple(result.scores),
        ranks=result.ranks(),
        win_shares=result.win_shares(),
        ranking=tuple(tuple(g) for g in result.ranking),
        moves=len(state.history),
        effort=effort,
        record_path=record_path,
    )


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "index": outcome.index,
        "lineup": list(outcome.lineup),
        "scores": list(outcome.scores),
        "ranking": [list(g) for g in outcome.ranking],
    }
