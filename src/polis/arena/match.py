"""Play one game between agents; the function every worker (process or Ray task) runs.

Each agent gets only ``state.view(seat)`` and the legal moves; the state stays here.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from polis.arena.schedule import Table
from polis.bots.agent import Agent
from polis.bots.factory import parse_agent_spec
from polis.core.protocol import Game


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
    #: Per seat: [moves decided, seconds thinking, search iterations, longest move in s].
    effort: list[list[float]] = field(default_factory=list)
    record_path: str | None = None


def load_game(name: str) -> Game:
    """A game by registry name, or by ``module:attribute`` (third-party and test games)."""
    if ":" in name:
        import importlib

        module, attr = name.split(":", 1)
        game = getattr(importlib.import_module(module), attr)
        assert isinstance(game, Game)
        return game
    from polis.core.registry import get_game

    return get_game(name)


def play_table(
    game_name: str,
    mode: str,
    players: int,
    specs: list[str],
    table: Table,
    records: str | None = None,
) -> Outcome:
    """Play ``table`` to the end; write its record into the folder ``records`` if given."""
    game = load_game(game_name)
    parsed = [parse_agent_spec(s) for s in specs]
    seat_specs = [parsed[i] for i in table.lineup]
    agents: list[Agent] = [
        sp.make(seed) for sp, seed in zip(seat_specs, table.agent_seeds, strict=True)
    ]
    state = game.new_game(mode, players, seed=table.setup_seed)
    effort = [[0.0, 0.0, 0.0, 0.0] for _ in range(players)]
    moves = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_moves()
        view = state.view(seat)
        start = time.perf_counter()
        move = agents[seat].act(view, legal, game, seat_specs[seat].budget)
        spent = time.perf_counter() - start
        state.apply(move)  # an agent's illegal move is a bug: let it raise
        row = effort[seat]
        row[0] += 1
        row[1] += spent
        row[3] = max(row[3], spent)
        moves += 1
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
        moves=moves,
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
