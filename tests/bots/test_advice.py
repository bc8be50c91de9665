"""Hints and post-game review: reproducible, from the player's view only, the worst moves marked."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from polis.bots.advice import advise
from polis.bots.review import MoveReview, mark_moves, review_moves
from polis.cli.main import app
from polis.cli.play import hint_text
from polis.core import get_game
from polis.core.protocol import Game, GameState

AGENT, SAMPLES = "mcts:24i", 6
TABLES = [("metropolys", "family"), ("quadropolis", "classic")]


def played(name: str, mode: str, seed: int, moves: int | None = None) -> GameState:
    """A seeded random game of two players, finished or stopped after ``moves``."""
    state = get_game(name).new_game(mode, 2, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal() and (moves is None or len(state.history) < moves):
        state.apply(state.random_move(rng))
    return state


def opening(game: Game, state: GameState) -> GameState:
    """The start of ``state``'s game, rebuilt from its record as a reviewer does."""
    return game.from_record({**state.to_record(), "moves": []})


@pytest.mark.parametrize(("name", "mode"), TABLES)
def test_a_review_sees_only_what_each_player_saw(name: str, mode: str) -> None:
    """Two games with the same moves but other hidden facts (another deal of what seat 0
    could not see) review seat 0's moves identically."""
    game = get_game(name)
    state = played(name, mode, seed=4, moves=14)
    for attempt in range(20):
        other = game.determinize(state.view(0), random.Random(attempt))
        if other.to_record()["setup"] != state.to_record()["setup"]:
            break
    else:
        pytest.fail("no other deal consistent with seat 0's view was found")
    assert list(other.history) == list(state.history)
    moves = list(state.history)
    mine = review_moves(
        game, opening(game, state), moves, seats={0}, seed=3, agent=AGENT, samples=SAMPLES
    )
    theirs = review_moves(
        game, opening(game, other), moves, seats={0}, seed=3, agent=AGENT, samples=SAMPLES
    )
    assert mine and mine == theirs
    assert {r.player for r in mine} == {0}


@pytest.mark.parametrize(("name", "mode"), TABLES)
def test_the_same_review_every_time_and_the_best_move_costs_nothing(name: str, mode: str) -> None:
    game = get_game(name)
    state = played(name, mode, seed=8, moves=10)
    start, moves = opening(game, state), list(state.history)
    first = review_moves(game, start, moves, seed=1, agent=AGENT, samples=SAMPLES)
    assert first == review_moves(game, start, moves, seed=1, agent=AGENT, samples=SAMPLES)
    assert [r.index for r in first] == list(range(len(moves)))
    for r in first:
        assert r.played is moves[r.index]
        if r.forced or r.best is r.played:
            assert r.win_share_loss == 0.0
        else:
            assert r.played_estimate is not None and r.best_estimate is not None
            assert r.win_share_loss == max(
                0.0, r.best_estimate.win_share - r.played_estimate.win_share
            )


def test_advice_weighs_the_moves_on_the_same_sampled_games() -> None:
    """A move asked about twice (as best and as the played move) is estimated once, and a
    move compared with itself loses nothing."""
    game = get_game("metropolys")
    state = played("metropolys", "family", seed=2, moves=6)
    view, legal = state.view(state.current_player()), state.legal_moves()
    advice = advise(game, view, legal, also=list(legal)[:3], seed=5, agent=AGENT, samples=SAMPLES)
    moves = [e.move for e in advice.estimates]
    assert moves[0] is advice.best and len(moves) == len(set(moves))
    assert all(0.0 <= e.win_share <= 1.0 and e.samples == SAMPLES for e in advice.estimates)
    again = advise(game, view, legal, also=[advice.best], seed=5, agent=AGENT, samples=SAMPLES)
    assert again.estimates[0] == advice.estimates[0]


def _review(index: int, loss: float, low: float | None = None) -> MoveReview:
    """A weighed move that lost ``loss``, with an interval whose low end is ``low`` (by
    default as sure as the estimate)."""
    move = get_game("metropolys").action_space("family")[0]
    low = loss if low is None else low
    return MoveReview(
        index, 0, move, move, False, None, None, loss, 0.0, loss_interval=(low, loss + 0.1)
    )


def test_every_move_past_a_threshold_is_marked_by_how_bad() -> None:
    """No cap: a game with five sure losses shows five marks (the old rule showed 3)."""
    losses = [0.05, 0.12, 0.5, 0.25, 0.31, 0.0, 0.11]
    marked = mark_moves([_review(i, loss) for i, loss in enumerate(losses)], 1.0)
    marks = {r.index: r.mark for r in marked if r.mark}
    assert marks == {
        1: "inaccuracy", 2: "blunder", 3: "mistake", 4: "blunder", 6: "inaccuracy"
    }  # fmt: skip
    assert mark_moves([_review(0, 0.09)], 1.0)[0].mark == ""


def test_a_mark_needs_its_whole_interval_past_the_threshold() -> None:
    """The mark is that of the interval's low end, never of the estimate alone; a move with
    no interval (nothing measured) is never marked."""
    assert mark_moves([_review(0, 0.5, low=0.31)], 1.0)[0].mark == "blunder"
    assert mark_moves([_review(0, 0.5, low=0.29)], 1.0)[0].mark == "mistake"
    assert mark_moves([_review(0, 0.5, low=0.12)], 1.0)[0].mark == "inaccuracy"
    assert mark_moves([_review(0, 0.5, low=0.05)], 1.0)[0].mark == ""
    move = get_game("metropolys").action_space("family")[0]
    bare = MoveReview(0, 0, move, move, False, None, None, 0.9, 0.0)
    assert mark_moves([bare], 1.0)[0].mark == ""


def test_polis_review_reports_every_move_of_a_finished_game(tmp_path: Path) -> None:
    state = played("metropolys", "family", seed=11)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.to_record(["Ada", "Bo"], 11)))
    args = ["review", str(path), "--agent", "mcts:16i", "--samples", "4", "--json"]
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert [m["index"] for m in report["moves"]] == list(range(len(state.history)))
    assert [m["played"] for m in report["moves"]] == [str(m) for m in state.history]
    assert json.loads(CliRunner().invoke(app, args).stdout) == report  # reproducible
    seat = CliRunner().invoke(app, [*args, "--seat", "2"])
    assert {m["player"] for m in json.loads(seat.stdout)["moves"]} == {1}
    table = CliRunner().invoke(app, args[:-1])
    assert table.exit_code == 0 and "Review" in table.stdout and "Ada" in table.stdout


def test_polis_review_refuses_a_game_that_is_not_over(tmp_path: Path) -> None:
    state = played("quadropolis", "classic", seed=1, moves=5)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.to_record()))
    out = CliRunner().invoke(app, ["review", str(path)])
    assert out.exit_code == 2
    assert "only for finished games" in out.output and "Traceback" not in out.output


def test_a_hint_words_its_gain_over_the_next_best_move() -> None:
    """The hint names the move that did best on the shared samples, even where the small
    search preferred another (as it does here)."""
    game = get_game("metropolys")
    state = played("metropolys", "family", seed=0, moves=1)
    view, legal = state.view(state.current_player()), state.legal_moves()
    advice = advise(game, view, legal, also=list(legal)[:3], seed=3, agent=AGENT, samples=SAMPLES)
    words = hint_text(advice)
    top = max(advice.estimates, key=lambda e: (e.win_share, e.points))
    assert top.move is not advice.best
    assert words.startswith(f"Hint: {top.move}.")  # never a move the samples rank lower
    gain = re.search(r": ([+-]\d+)% wins and ([+-][\d.]+) points", words)
    if gain:  # what it gains over the next best is never a loss
        assert int(gain.group(1)) >= 0
    else:
        assert "about as good as" in words
