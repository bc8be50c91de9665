"""GameResult: win shares and ranks as the arena and research rewards use them."""

import pytest

from polis.core import GameResult, InputError, get_game


def test_sole_winner_takes_the_whole_win() -> None:
    result = GameResult(scores=(40, 55, 31), ranking=((1,), (0,), (2,)))
    assert result.win_shares() == (0.0, 1.0, 0.0)
    assert result.ranks() == (2.0, 1.0, 3.0)


def test_shared_first_place_splits_the_win_and_the_ranks() -> None:
    result = GameResult(scores=(50, 50, 50, 20), ranking=((0, 2, 1), (3,)))
    assert result.win_shares() == pytest.approx((1 / 3, 1 / 3, 1 / 3, 0.0))
    assert result.ranks() == (2.0, 2.0, 2.0, 4.0)


def test_shared_last_place() -> None:
    result = GameResult(scores=(9, 3, 3), ranking=((0,), (1, 2)))
    assert result.ranks() == (1.0, 2.5, 2.5)
    assert sum(result.win_shares()) == 1.0


def test_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="unknown game 'chess'"):
        get_game("chess")


@pytest.mark.parametrize("game", ["quadropolis", "metropolys"])
@pytest.mark.parametrize("seed", [[1], {"a": 1}, True])
def test_a_seed_that_is_not_a_number_is_a_clear_error(game: str, seed: object) -> None:
    engine = get_game(game)
    with pytest.raises(InputError, match="seed must be a number or null"):
        engine.new_game(engine.modes[0], 2, seed=seed)  # type: ignore[arg-type]
