"""The searches' playouts on a game's compiled engine (Knowledge.playout): the same policy as
the Python playouts, so the same rewards on average, without touching the sampled state."""

from __future__ import annotations

import random
import statistics

import pytest

from polis.bots.knowledge import knowledge_for
from polis.core import compiled
from polis.core.registry import get_game
from polis.games.quadropolis.knowledge import SEARCH_PICKS

pytest.importorskip("numba")

CASES = [
    ("metropolys", "family", 2),
    ("metropolys", "expert", 4),
    ("quadropolis", "classic", 2),
    ("quadropolis", "expert", 4),
]


def rewards(game_name: str, mode: str, players: int, setting: str, n: int) -> list[float]:
    """Seat 0's reward in ``n`` playouts from one position, compiled or in Python."""
    game = get_game(game_name)
    knowledge = knowledge_for(game)
    if game_name == "quadropolis":  # the compiled search's playouts compare more tiles
        knowledge.playout_picks = SEARCH_PICKS  # type: ignore[attr-defined]
    rng = random.Random(5)
    state = game.new_game(mode, players, seed=3)
    for _ in range(4):
        state.apply(state.random_move(rng))
    out = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(compiled.SETTING, setting)
        for _ in range(n):
            sample = state.clone()
            got = knowledge.playout(sample, rng)
            assert len(got) == players and all(0.0 <= r <= 1.0 for r in got)
            if setting == "on":
                assert sample.history == state.history  # finished on a row, not in place
            else:
                assert sample.is_terminal()
            out.append(got[0])
        assert (knowledge._playouts() is not None) is (setting == "on")
    return out


@pytest.mark.parametrize(("game", "mode", "players"), CASES)
def test_compiled_playouts_reward_as_the_python_ones(game: str, mode: str, players: int) -> None:
    python = rewards(game, mode, players, "off", 300)
    fast = rewards(game, mode, players, "on", 300)
    # the same policy: means within a few standard errors (fixed seeds: no flakes)
    spread = (statistics.pstdev(python) + statistics.pstdev(fast)) / 2
    assert abs(statistics.mean(python) - statistics.mean(fast)) < 4 * spread / 300**0.5
    assert len(set(fast)) > 3  # the draws vary from one playout to the next


@pytest.mark.parametrize("game_name", ["metropolys", "quadropolis"])
def test_the_python_agents_keep_their_searches_off_the_compiled_engine(
    game_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``mcts-python`` is today's ``hard`` beside the compiled one: the reference a gain in
    strength is measured against, in the same process."""
    from polis.bots.budget import Budget
    from polis.bots.factory import make_agent

    monkeypatch.setenv(compiled.SETTING, "on")
    game = get_game(game_name)
    state = game.new_game(game.modes[0], 2, seed=4)
    for text, on in (("mcts", True), ("mcts-python", False), ("montecarlo-python", False)):
        agent, budget = make_agent(text, seed=1)
        assert budget.seconds == (1.7 if "mcts" in text else 0.2)  # the levels' budgets
        view = state.view(state.current_player())
        move = agent.act(view, state.legal_moves(), game, Budget(iterations=30))
        assert move in state.legal_moves()
        knowledge = agent.inner._knowledge  # type: ignore[attr-defined]
        assert (knowledge._playouts() is not None) is on, text


@pytest.mark.parametrize("game_name", ["metropolys", "quadropolis"])
def test_a_greedy_choice_never_brings_the_compiled_engine_in(
    game_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a search asks for the compiled engine (``start_search``): ``easy`` (greedy)
    neither loads nor compiles it, and follows none of its samples on a row."""
    from polis.bots.factory import make_agent

    monkeypatch.setenv(compiled.SETTING, "on")
    game = get_game(game_name)
    state = game.new_game(game.modes[0], 2, seed=4)
    agent, budget = make_agent("easy", seed=1)
    move = agent.act(state.view(state.current_player()), state.legal_moves(), game, budget)
    assert move in state.legal_moves()
    knowledge = agent.inner._knowledge  # type: ignore[attr-defined]
    assert knowledge._search is None and knowledge._fast is None
