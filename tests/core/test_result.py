"""GameResult: win shares and ranks as the arena and research rewards use them; one shape."""

import json
import pickle
import random

import pytest

from polis.core import GameResult, InputError, PlayerScore, games, get_game, play_random_game


def result(scores: tuple[int, ...], ranking: tuple[tuple[int, ...], ...]) -> GameResult:
    return GameResult(game="counting", mode="basic", scores=scores, ranking=ranking)


def test_sole_winner_takes_the_whole_win() -> None:
    won = result((40, 55, 31), ((1,), (0,), (2,)))
    assert won.win_shares() == (0.0, 1.0, 0.0)
    assert won.ranks() == (2.0, 1.0, 3.0)


def test_shared_first_place_splits_the_win_and_the_ranks() -> None:
    shared = result((50, 50, 50, 20), ((0, 2, 1), (3,)))
    assert shared.win_shares() == pytest.approx((1 / 3, 1 / 3, 1 / 3, 0.0))
    assert shared.ranks() == (2.0, 2.0, 2.0, 4.0)


def test_shared_last_place() -> None:
    last = result((9, 3, 3), ((0,), (1, 2)))
    assert last.ranks() == (1.0, 2.5, 2.5)
    assert sum(last.win_shares()) == 1.0


def test_to_json_is_the_games_record_object_or_the_plain_shape() -> None:
    plain = result((9, 3), ((0,), (1,)))
    assert plain.to_json() == {
        "game": "counting",
        "mode": "basic",
        "scores": [9, 3],
        "ranking": [[0], [1]],
    }
    written = {"game": "counting", "players": [{"total": 9}, {"total": 3}], "ranking": [[0], [1]]}
    line = PlayerScore(total=9, categories={"points": 9}, tie_breaks={"built": 2})
    full = GameResult("counting", "basic", (9, 3), ((0,), (1,)), (line, line), written)
    out = full.to_json()
    assert out == written and out is not written
    out["players"][0]["total"] = 0  # a fresh copy: changing it leaves the result alone
    assert full.to_json() == written
    assert full == GameResult("counting", "basic", (9, 3), ((0,), (1,)), (line, line))


def test_details_are_worked_out_once_and_only_when_read() -> None:
    """A search bot reads only scores and places; the breakdown costs nothing until asked."""
    calls = []
    line = PlayerScore(total=9, categories={"points": 9})

    def details() -> tuple[tuple[PlayerScore, ...], dict[str, object]]:
        calls.append(1)
        return (line,), {"game": "counting", "players": [{"total": 9}]}

    lazy = GameResult("counting", "basic", (9,), ((0,),), details=details)
    assert lazy.win_shares() == (1.0,) and lazy.scores == (9,) and not calls
    assert lazy.players == (line,) and lazy.to_json()["players"] == [{"total": 9}]
    assert lazy.json and calls == [1]
    assert lazy == GameResult("counting", "basic", (9,), ((0,),), (line,))
    assert pickle.loads(pickle.dumps(lazy)) == lazy
    with pytest.raises(AttributeError, match="immutable"):
        lazy.scores = (0,)


@pytest.mark.parametrize("name", sorted(games()))
def test_every_game_gives_one_result_shape(name: str) -> None:
    """Per player the pad's categories (summing to the total) and the game's tie-breaks."""
    game = get_game(name)
    for mode in game.modes:
        state = play_random_game(game.new_game(mode, 3, seed=7), random.Random(7))
        done = state.result()
        assert (done.game, done.mode) == (name, mode) and len(done.players) == 3
        for line, score in zip(done.players, done.scores, strict=True):
            assert line.total == score == sum(line.categories.values())
            assert list(line.categories) == list(game.categories)
            assert set(line.tie_breaks) <= set(game.tie_breaks)
        assert sorted(p for place in done.ranking for p in place) == [0, 1, 2]
        assert json.loads(json.dumps(done.to_json())) == state.to_record()["result"]


def test_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="unknown game 'chess'"):
        get_game("chess")


@pytest.mark.parametrize("game", sorted(games()))
@pytest.mark.parametrize("seed", [[1], {"a": 1}, True])
def test_a_seed_that_is_not_a_number_is_a_clear_error(game: str, seed: object) -> None:
    engine = get_game(game)
    with pytest.raises(InputError, match="seed must be a number or null"):
        engine.new_game(engine.modes[0], 2, seed=seed)  # type: ignore[arg-type]
