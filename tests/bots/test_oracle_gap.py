"""The oracle-gap benchmark: the twin sees the truth, the honest agent never does, and the
summary's intervals are right."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from pathlib import Path
from typing import Any, cast

import pytest

from polis.bots import Budget, MctsAgent, knowledge_for
from polis.core.protocol import Game, GameState
from polis.core.registry import get_game

from .scripts import load_script

og = load_script("oracle_gap")


def _position(name: str, mode: str, moves: int) -> tuple[Game, GameState]:
    """A 2-player game a few random moves in (hidden facts still hidden)."""
    game = get_game(name)
    state = game.new_game(mode, 2, seed=5)
    rng = random.Random(2)
    for _ in range(moves):
        state.apply(state.random_move(rng))
    assert not state.is_terminal()
    return game, state


def _deal(state: GameState) -> str:
    return json.dumps(state.setup(), sort_keys=True)


SETTINGS = [("metropolys", "family", 9), ("quadropolis", "classic", 5)]


@pytest.mark.parametrize(("name", "mode", "moves"), SETTINGS)
def test_the_twin_samples_the_true_state(name: str, mode: str, moves: int) -> None:
    game, state = _position(name, mode, moves)
    seeing = og.SeeingGame(game, state)
    knowledge = knowledge_for(cast(Game, seeing))
    view = state.view(state.current_player())
    knowledge.observe(view)
    for seed in range(5):
        sample = knowledge.sample(view, random.Random(seed))
        assert _deal(sample) == _deal(state)  # secret cards / face-down tiles, future rounds
        assert list(sample.history) == list(state.history)
        assert sample is not state
    assert seeing.clones > 0


@pytest.mark.parametrize(("name", "mode", "moves"), SETTINGS)
def test_the_honest_agent_only_guesses(name: str, mode: str, moves: int) -> None:
    game, state = _position(name, mode, moves)
    knowledge = knowledge_for(game)
    view = state.view(state.current_player())
    knowledge.observe(view)
    deals = {_deal(knowledge.determinize(view, random.Random(seed))) for seed in range(10)}
    assert len(deals) > 1
    assert deals != {_deal(state)}


def test_the_twin_agent_searches_on_the_truth() -> None:
    game, state = _position("metropolys", "family", 9)
    seeing = og.SeeingGame(game, state)
    agent = MctsAgent(random.Random(1))
    player = state.current_player()
    move = agent.act(state.view(player), state.legal_moves(), seeing, Budget(iterations=30))
    assert move in state.legal_moves()
    assert seeing.clones > 0


def test_a_stale_truth_is_refused() -> None:
    game, state = _position("metropolys", "family", 9)
    view = state.view(state.current_player())
    later = state.clone()
    later.apply(later.random_move(random.Random(0)))
    with pytest.raises(RuntimeError):
        og.SeeingGame(game, later).determinize(view, random.Random(0))


def _record(
    deal: int, twins: tuple[int, ...], shares: tuple[float, ...], inference: str = "policy"
) -> Any:
    ranks = tuple(1.0 if s == 1 else 1.5 if s == 0.5 else 2.0 for s in shares)
    scores = tuple(10.0 * s for s in shares)
    return og.Record(
        "g", "m", 2, "mcts", 400, deal, twins, 11, inference,
        scores=scores, ranks=ranks, win_shares=shares, seconds=1.0,
    )  # fmt: skip


def test_summary_wilson_interval_on_known_numbers() -> None:
    # 12 honest wins in 16 games (each seat 6 of 8): 0.75, Wilson 95% interval [0.505, 0.898].
    records = []
    for i in range(16):
        honest = i % 2
        shares = [0.0, 0.0]
        shares[honest if i < 12 else 1 - honest] = 1.0
        records.append(_record(i // 2, (1 - honest,), (shares[0], shares[1])))
    (row,) = og.summarise(records)
    assert row["games"] == 16
    assert row["win_share"] == 0.75
    assert row["win_share_ci"] == [0.505, 0.898]
    assert row["win_share_by_seat"] == {"0": 0.75, "1": 0.75}
    # A shared first place counts half: 5 wins and 1 tie in 20 games is 0.275.
    ties = [_record(i // 2, (1,), (1.0, 0.0) if i < 5 else (0.0, 1.0)) for i in range(19)]
    ties.append(_record(9, (1,), (0.5, 0.5)))
    (row,) = og.summarise(ties)
    assert row["win_share"] == 0.275
    assert row["win_share_ci"] == [0.128, 0.494]


def test_every_deal_puts_the_lone_agent_in_every_seat() -> None:
    two = og.tasks([("g", "m", 2)], ["mcts"], [400], 4, "honest", 1)
    assert [(t.deal, t.twins) for t in two] == [(0, (1,)), (0, (0,)), (1, (1,)), (1, (0,))]
    four = og.tasks([("g", "m", 4)], ["mcts"], [400], 4, "honest", 1)
    assert sorted(set(range(4)) - set(t.twins) for t in four) == [{0}, {1}, {2}, {3}]
    lone_twin = og.tasks([("g", "m", 4)], ["mcts"], [400], 4, "twin", 1)
    assert [t.twins for t in lone_twin] == [(0,), (1,), (2,), (3,)]


def test_saved_games_merge_back(tmp_path: Path) -> None:
    records = [_record(0, (1,), (1.0, 0.0)), _record(0, (0,), (0.5, 0.5))]
    log = tmp_path / "run.jsonl"
    log.write_text("".join(json.dumps(asdict(r)) + "\n" for r in records), encoding="utf-8")
    back = [og.Record(**{**r, **og._tuples(r)}) for r in og._saved(log)]
    assert back == records
    assert og.summarise(back) == og.summarise(records)


def test_inference_duel_gives_one_agent_the_count_rule() -> None:
    """benchmarks/inference_duel.py: its wrapped game hands out knowledge that learns by
    counts, and the real game's knowledge still learns by the policy."""
    duel = load_script("inference_duel")
    game = get_game("metropolys")
    counts = knowledge_for(cast(Game, duel.CountsGame(game)))
    assert counts.inference == "counts"  # type: ignore[attr-defined]
    assert knowledge_for(game).inference == "policy"  # type: ignore[attr-defined]
    # the wrapped game plays as the game: same legal moves from the same deal
    state = game.new_game("family", 2, seed=1)
    assert duel.CountsGame(game).new_game("family", 2, seed=1).legal_moves() == state.legal_moves()


def test_counts_runs_give_only_the_honest_seats_the_count_rule() -> None:
    """--inference counts: the gap before the policy-based inference. The honest seats learn
    by counts, the twins still see the truth, and the summary keeps the two apart."""
    game = get_game("metropolys")
    state = game.new_game("family", 2, seed=3)
    for inference in ("policy", "counts"):
        settings = [("metropolys", "family", 2)]
        task = og.tasks(settings, ["mcts"], [400], 2, "honest", 11, inference=inference)[0]
        assert task.inference == inference
        (twin,) = task.twins
        eyes = og.seat_eyes(task, game, state)
        assert knowledge_for(eyes[1 - twin]).inference == inference  # type: ignore[attr-defined]
        assert isinstance(eyes[twin], og.SeeingGame)
    won = _record(0, (1,), (1.0, 0.0))
    lost = _record(0, (1,), (0.0, 1.0), inference="counts")
    rows = {r["lineup"]: r["win_share"] for r in og.summarise([won, lost])}
    assert rows == {"1 honest v 1 twin": 1.0, "1 honest (counts) v 1 twin": 0.0}
