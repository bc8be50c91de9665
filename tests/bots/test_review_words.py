"""The review in words and on the game's scale: each game's reasons name keys every catalogue
has, with the arguments its messages ask for; a move equal to the best is never marked; a
game lost by a wide margin shows its blunders, the winner's moves few marks."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from polis.bots.advice import Estimate
from polis.bots.factory import make_agent
from polis.bots.review import (
    MARKS,
    MoveReview,
    explain,
    mark_moves,
    points_scale,
    review_moves,
    second_look,
    weigh,
)
from polis.cli.main import app
from polis.core import get_game
from polis.core.parts import REASONS, Reason
from polis.core.protocol import Game, GameState
from polis.core.wording import LANGUAGES, arguments, load, say_reason, words
from polis.games.quadropolis.scoring import score_city

GAMES = [
    ("quadropolis", "classic"),
    ("quadropolis", "expert"),
    ("metropolys", "family"),
    ("metropolys", "expert"),
]
ROOT = Path(__file__).resolve().parents[2]


def nodes(reason: Reason) -> Iterator[Reason]:
    """The reason and every reason nested in its arguments."""
    yield reason
    for value in reason["params"].values():
        if isinstance(value, dict):
            yield from nodes(value)


def positions(name: str, mode: str, seed: int) -> Iterator[tuple[Game, GameState]]:
    """Every position of a seeded random game of two players where there is a choice."""
    game = get_game(name)
    state = game.new_game(mode, 2, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if len(state.legal_moves()) > 1:
            yield game, state
        state.apply(state.random_move(rng))


@pytest.mark.parametrize(("name", "mode"), GAMES)
def test_every_reason_key_is_in_every_catalogue_with_its_arguments(name: str, mode: str) -> None:
    """Reasons for many pairs of moves (random ones, and the move that scores most against
    the one that scores least): each key, nested ones too, is in the game's catalogue in
    every language, its arguments exactly those the message asks for, and it words."""
    package = f"polis.games.{name}"
    catalogues = {lang: load(package, "web/i18n", lang) for lang in LANGUAGES}
    rng = random.Random(1)
    seen = set()
    for game, state in positions(name, mode, 3):
        legal = list(state.legal_moves())
        view = state.view(state.current_player())
        for played, best in (rng.sample(legal, 2), (legal[-1], legal[0])):
            points, win = rng.choice([(4.2, 0.0), (0.2, 0.15), (-1.0, 0.3)])
            reason = game.plugin(REASONS)(view, played, best, points=points, win_share=win)
            assert reason is not None
            seen.add(reason["key"])
            json.dumps(reason)  # plain JSON
            for node in nodes(reason):
                for lang, catalogue in catalogues.items():
                    assert node["key"] in catalogue, (lang, node["key"])
                    wanted = set(arguments(catalogue[node["key"]]))
                    assert wanted == set(node["params"]), (lang, node)
            for lang in LANGUAGES:
                text = say_reason(words(lang, (package, "web/i18n")), reason)
                assert "{" not in text and text.endswith("."), (lang, text)
    expected = {"review.now", "review.later"} if name == "quadropolis" else {"review.better"}
    assert expected <= seen, seen


def _best_scoring(state: GameState) -> tuple[Any, Any, int]:
    """The build move that scores most at once in the mover's city, the move that scores
    least, and the difference (the exact scorer on the city as it stands)."""
    player = state.current_player()
    totals: dict[Any, int] = {}
    for move in state.legal_moves():
        after = state.clone()
        after.apply(move)
        inhabitants, energy = after.resources(player)  # type: ignore[attr-defined]
        city = after.city(player)  # type: ignore[attr-defined]
        scoring = after.rules.scoring  # type: ignore[attr-defined]
        report = score_city(
            after.mode,
            city,
            inhabitants,
            energy,
            playground_absorbs_pollution=scoring[0],
            office_tower_group_cap=scoring[1],
            empty_squares_after_removal=scoring[2],
        )
        totals[move] = report.total
    best = max((m for m in totals if m.target >= 0), key=lambda m: (totals[m], -m.id))
    worst = min(totals, key=lambda m: (totals[m], m.id))
    return best, worst, totals[best] - totals[worst]


def test_a_quadropolis_reason_names_the_better_tile_and_its_points() -> None:
    """Where the better move scores more at once, the sentence gives the scorer's difference,
    the tile and square of the better move and what the played one did."""
    checked = 0
    for game, state in positions("quadropolis", "classic", 5):
        best, worst, gain = _best_scoring(state)
        if gain < 1:
            continue
        view = state.view(state.current_player())
        reason = game.plugin(REASONS)(view, worst, best, points=0.0, win_share=0.0)
        assert reason is not None and reason["key"] == "review.now"
        assert reason["params"]["points"] == gain
        assert reason["params"]["best"]["key"] == "review.do.build"
        row, col = divmod(best.target, 4)
        assert reason["params"]["best"]["params"]["square"]["params"] == {
            "row": row + 1,
            "col": col + 1,
        }
        text = say_reason(words("en", ("polis.games.quadropolis", "web/i18n")), reason)
        assert f"would have scored {gain} more point" in text and f"row {row + 1}" in text
        checked += 1
    assert checked >= 5


def _estimate(move: Any, points: list[float]) -> Estimate:
    outcomes = tuple((0.0, p) for p in points)
    return Estimate(move, 0.0, sum(points) / len(points), 0.0, len(points), outcomes)


def test_a_move_equal_to_the_best_gets_no_mark_and_no_words() -> None:
    game = get_game("quadropolis")
    state = game.new_game("classic", 2, seed=1)
    move = state.legal_moves()[0]
    same = _estimate(move, [10, 30, 20, 25])
    review = MoveReview(0, 0, move, move, False, same, same, 0.0, 0.0, "", (0, 0), (0, 0))
    (marked,) = mark_moves([review], points_scale([44, 0], 32, 2))
    assert marked.mark == "" and marked.moves_lost == 0.0
    assert explain(game, state.view(0), marked).reason is None


def test_a_game_lost_by_44_marks_the_points_it_surely_lost() -> None:
    """Win shares are 0 either way in a game lost 44 to 0, so the old rule marked nothing; on
    the game's scale (44 points over 16 moves each: 2.75 a move) a move that surely lost 8
    points is a blunder, 5 a mistake, 3 an inaccuracy, and one whose interval allows no
    loss is not marked, however large its estimate."""
    scale = points_scale([0, 44], 32, 2)
    assert scale == pytest.approx(2.75)
    move = get_game("metropolys").action_space("family")[0]

    def lost(points: float, low: float) -> MoveReview:
        return MoveReview(
            0, 0, move, move, False, None, None, 0.0, points, "", (-0.05, 0.05), (low, 2 * points)
        )

    marks = [r.mark for r in mark_moves([lost(8, 2), lost(5, 1), lost(3, 0.5), lost(9, -1)], scale)]
    assert marks == ["blunder", "mistake", "inaccuracy", ""]
    assert [name for name, _win, _worth in MARKS] == ["blunder", "mistake", "inaccuracy"]


def lopsided(name: str, mode: str, seed: int) -> tuple[Game, GameState, GameState]:
    """A 2-player game of a random player (seat 0) against the greedy bot: the game, its
    start and its end."""
    game = get_game(name)
    state = game.new_game(mode, 2, seed=seed)
    start = state.clone()
    greedy, budget = make_agent("greedy", 1)
    rng = random.Random(seed)
    while not state.is_terminal():
        p = state.current_player()
        if p == 0:
            state.apply(state.random_move(rng))
        else:
            state.apply(greedy.act(state.view(p), state.legal_moves(), game, budget))
    return game, start, state


def marks_the_loser(reviews: list[MoveReview], serious: int) -> None:
    """Player 0 (who lost) gets at least ``serious`` mistakes or blunders and more marks than
    player 1; a move that was the best is never marked, and every marked move has words."""
    weak = [r.mark for r in reviews if r.player == 0 and r.mark]
    strong = [r.mark for r in reviews if r.player == 1 and r.mark]
    assert sum(m in ("blunder", "mistake") for m in weak) >= serious, weak
    assert len(strong) < len(weak), (weak, strong)
    for r in reviews:
        if r.best is r.played:
            assert r.mark == ""
        if r.mark:
            assert r.reason is not None


def test_a_lopsided_metropolys_game_marks_the_moves_that_lost_it() -> None:
    """A bidding game lost 10 to 53: each playout swings with one call, so one look of 12
    samples is sure of a single mistake; the second look (more samples where an estimate is
    past a mark but its interval is not sure) finds the loser's second one and none of the
    winner's. Fails without the second look."""
    game, start, end = lopsided("metropolys", "family", 1)
    scores = end.result().scores
    assert scores[1] - scores[0] >= 30, scores
    reviews = review_moves(game, start, list(end.history), agent="mcts:32i", samples=12)
    marks_the_loser(reviews, serious=2)
    looked = [r for r in reviews if r.best_estimate is not None and r.best_estimate.samples > 12]
    assert looked and all(r.best_estimate.samples == 48 for r in looked if r.best_estimate)


def test_a_second_look_adds_samples_to_the_first_as_one_bigger_look() -> None:
    """The second look's samples follow the first's (the same seed, the next samples): a
    move weighed on 12 samples, then 36 more, is the move weighed on 48 at once."""
    game, start, end = lopsided("metropolys", "family", 1)
    state = start.clone()
    for move in end.history[:10]:
        state.apply(move)
    while len(state.legal_moves()) == 1:
        state.apply(state.legal_moves()[0])
    index, player, legal = len(state.history), state.current_player(), state.legal_moves()
    view = state.view(player)
    played = end.history[index]
    once = weigh(game, view, legal, index, played, "mcts:16i", 48, 0)
    again = second_look(game, view, weigh(game, view, legal, index, played, "mcts:16i", 12, 0), 0)
    assert again.best_estimate is not None and once.best_estimate is not None
    assert again.played_estimate is not None and once.played_estimate is not None
    assert again.best_estimate.samples == 48
    assert again.best_estimate.outcomes == once.best_estimate.outcomes
    assert again.played_estimate.outcomes == once.played_estimate.outcomes
    assert again.points_loss == pytest.approx(once.points_loss)
    assert again.points_interval == pytest.approx(once.points_interval)
    assert again.loss_interval == pytest.approx(once.loss_interval)


@pytest.mark.slow  # a whole game played and reviewed (about 30 s)
def test_a_lopsided_game_shows_the_losers_blunders_and_few_of_the_winners(tmp_path: Path) -> None:
    """A random player against the greedy bot at Quadropolis, reviewed on a small budget: the
    random player's moves get several mistakes or blunders, each explained in words; the
    winner's get fewer marks. ``polis review`` prints the same words."""
    game, start, state = lopsided("quadropolis", "classic", 1)
    scores = state.result().scores
    assert scores[1] - scores[0] >= 20, scores
    reviews = review_moves(game, start, list(state.history), agent="mcts:32i", samples=12)
    marks_the_loser(reviews, serious=3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.to_record(["Ada", "bot:easy"], 1)))
    args = ["review", str(path), "--agent", "mcts:32i", "--samples", "12", "--lang", "de"]
    text = CliRunner().invoke(app, args, env={"COLUMNS": "200"}).stdout
    said = [say_reason(words("de", ("polis.games.quadropolis", "web/i18n")), r.reason)
            for r in reviews if r.reason is not None]  # fmt: skip
    for sentence in said:
        assert sentence[:40] in " ".join(text.split()), sentence


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_browser_words_every_reason_as_the_terminal_does(tmp_path: Path) -> None:
    """Reasons of both games in every language: static/js/reasons.js (through the page's
    catalogue chain) gives Python's text (tests/js/reasons.test.mjs)."""
    cases = []
    rng = random.Random(2)
    for name, mode in GAMES:
        package = f"polis.games.{name}"
        for game, state in positions(name, mode, 4):
            if rng.random() > 0.3:
                continue
            played, best = rng.sample(list(state.legal_moves()), 2)
            view = state.view(state.current_player())
            reason = game.plugin(REASONS)(view, played, best, points=3.0, win_share=0.1)
            assert reason is not None
            for lang in LANGUAGES:
                expected = say_reason(words(lang, (package, "web/i18n")), reason)
                cases.append({"game": name, "lang": lang, "reason": reason, "expected": expected})
    path = tmp_path / "reasons.json"
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    run = subprocess.run(
        ["node", "--import", "./tests/js/register.mjs", "--test", "tests/js/reasons.test.mjs"],
        cwd=ROOT,
        env={**os.environ, "POLIS_REASONS_FIXTURE": str(path)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# pass 1" in run.stdout and len(cases) > 40
