"""Agents on a tiny hidden-information game: legality, budgets, reproducibility, no peeking."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polis.bots import Budget, make_agent, parse_agent_spec
from polis.bots.factory import LEVELS
from polis.core.errors import InputError
from toygame import GAME, TARGET, CountingState

SPECS = ["random", "greedy", "montecarlo:30i", "mcts:30i"]


def play(specs: list[str], seed: int) -> list[str]:
    state = GAME.new_game("basic", len(specs), seed=seed)
    agents = [make_agent(s, seed * 10 + i) for i, s in enumerate(specs)]
    while not state.is_terminal():
        p = state.current_player()
        agent, budget = agents[p]
        move = agent.act(state.view(p), state.legal_moves(), GAME, budget)
        assert move in state.legal_moves()
        state.apply(move)
    return [m.text for m in state.history]


@pytest.mark.parametrize(
    ("text", "iterations", "seconds"),
    [("500i", 500, None), ("1s", None, 1.0), ("200ms", None, 0.2), ("1.5s", None, 1.5)],
)
def test_budget_parse(text: str, iterations: int | None, seconds: float | None) -> None:
    budget = Budget.parse(text)
    assert budget.iterations == iterations
    assert budget.seconds == seconds
    assert Budget.parse(str(budget)) == budget


@pytest.mark.parametrize("text", ["", "1", "1x", "0i", "1.5i", "-1s", "0s", "fast"])
def test_bad_budget_is_a_clear_error(text: str) -> None:
    with pytest.raises(InputError, match="budget"):
        Budget.parse(text)


def test_agent_specs() -> None:
    assert parse_agent_spec("mcts:1s").budget == Budget(seconds=1.0)
    assert parse_agent_spec("MonteCarlo:20i").kind == "montecarlo"
    for level, (two, more) in LEVELS.items():
        parsed = parse_agent_spec(level)
        assert parsed.kind == parse_agent_spec(two).kind == parse_agent_spec(more).kind
        assert parsed.level_budgets == (parse_agent_spec(two).budget, parse_agent_spec(more).budget)
        assert parsed.text == level
    # A searching agent named bare plays with its level's budgets at every table size.
    assert parse_agent_spec("mcts").level_budgets == parse_agent_spec("hard").level_budgets
    assert parse_agent_spec("montecarlo").level_budgets == parse_agent_spec("medium").level_budgets
    assert parse_agent_spec("greedy").level_budgets is None
    with pytest.raises(InputError, match="unknown agent 'alphazero'"):
        parse_agent_spec("alphazero")
    with pytest.raises(InputError, match="budget"):
        parse_agent_spec("mcts:soon")


def test_time_budget_is_respected() -> None:
    state = GAME.new_game("basic", 2, seed=1)
    agent, _ = make_agent("mcts:50ms", 1)
    import time

    start = time.perf_counter()
    agent.act(state.view(0), state.legal_moves(), GAME, Budget(seconds=0.05))
    assert time.perf_counter() - start < 0.5
    assert agent.stats.iterations > 1  # type: ignore[attr-defined]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), spec=st.sampled_from(SPECS), players=st.integers(2, 4))
def test_agents_play_legal_moves_to_the_end(seed: int, spec: str, players: int) -> None:
    history = play([spec] * players, seed)
    assert sum(int(m) for m in history) >= TARGET > sum(int(m) for m in history[:-1])


@pytest.mark.parametrize("spec", SPECS)
def test_iteration_budgets_are_reproducible(spec: str) -> None:
    assert play([spec, "mcts:20i", spec], 5) == play([spec, "mcts:20i", spec], 5)


def test_different_seeds_explore_differently() -> None:
    runs = {tuple(play(["random", "random"], s)) for s in range(6)}
    assert len(runs) > 1


def twin_states(seed: int) -> tuple[CountingState, CountingState]:
    """Two positions that differ only in the opponents' hidden lucky numbers."""
    a = GAME.new_game("basic", 3, seed=seed)
    setup = a.setup()
    setup["lucky"] = [setup["lucky"][0], *((x % 3) + 1 for x in setup["lucky"][1:])]
    b = GAME.new_game("basic", 3, setup=setup)
    for state in (a, b):  # player 0 to move, with one move of each player behind
        while state.current_player() != 0 or len(state.history) < 3:
            state.apply(state.legal_moves()[len(state.history) % 3])
    return a, b


@pytest.mark.parametrize("spec", SPECS)
def test_agents_decide_from_the_view_alone(spec: str) -> None:
    """Changing what player 0 may not see never changes player 0's move."""
    for seed in range(8):
        a, b = twin_states(seed)
        assert a.view(0) == b.view(0)
        assert a.view(1) != b.view(1)  # the hidden fact is real
        moves = []
        for state in (a, b):
            agent, budget = make_agent(spec, seed)
            moves.append(agent.act(state.view(0), state.legal_moves(), GAME, budget))
        assert moves[0] == moves[1]


def test_mcts_reuses_its_tree_only_when_sound() -> None:
    from polis.bots.knowledge import Knowledge
    from polis.bots.mcts import MctsAgent

    class Reusing(Knowledge):
        def reuse_key(self, view: object) -> int:
            return 1

    agent = MctsAgent(random.Random(3))
    state = GAME.new_game("basic", 2, seed=3)
    agent._knowledge = Reusing(GAME)
    agent.act(state.view(0), state.legal_moves(), GAME, Budget(iterations=200))
    kept = agent._root
    assert kept is not None and kept.visits > 0
    state.apply(agent._root_history[-1])
    state.apply(state.legal_moves()[0])
    reused = agent._reused_root(state.view(0), 1)
    assert reused is not None and reused in kept.children.values()
    assert agent._reused_root(state.view(0), 2) is None  # new information: start afresh


def test_a_level_thinks_longer_at_a_larger_table() -> None:
    from polis.bots.factory import LevelAgent

    agent = parse_agent_spec("medium").make(1)
    assert isinstance(agent, LevelAgent)
    seen: list[Budget] = []
    agent.inner.act = lambda view, legal, game, budget: seen.append(budget) or legal[0]  # type: ignore[method-assign]
    for players in (2, 4):
        view = GAME.new_game("basic", players, seed=1).view(0)
        agent.act(view, list(GAME.action_space("basic")), GAME, Budget(iterations=1))
    two, more = (parse_agent_spec(spec).budget for spec in LEVELS["medium"])
    assert seen == [two, more] and more.seconds > two.seconds  # type: ignore[operator]


@pytest.mark.parametrize("favoured", [1, 2, 3])
def test_mcts_mixes_a_learned_value_into_its_rewards(favoured: int) -> None:
    """With the whole reward taken from ``leaf_value``, the search plays what it favours."""
    from polis.bots.knowledge import Knowledge
    from polis.bots.mcts import MctsAgent
    from polis.core.protocol import GameState

    class Valued(Knowledge):
        value_mix = 1.0

        def leaf_value(self, state: GameState) -> tuple[float, ...]:
            assert isinstance(state, CountingState)
            root_move = state.history[depth]
            good = 1.0 if root_move.amount == favoured else 0.0  # type: ignore[attr-defined]
            return (good, 1.0 - good) if mover == 0 else (1.0 - good, good)

    for seed in range(4):
        state = GAME.new_game("basic", 2, seed=seed)
        depth, mover = len(state.history), state.current_player()
        agent = MctsAgent(random.Random(seed))
        agent._knowledge = Valued(GAME)
        move = agent.act(state.view(mover), state.legal_moves(), GAME, Budget(iterations=60))
        assert move.amount == favoured  # type: ignore[attr-defined]


def test_mcts_searches_as_many_root_moves_as_its_knowledge_asks() -> None:
    """The root holds the ``root_width`` best moves by one-ply value, unless the agent was
    given a width of its own: with a width of one, the move played is the best one."""
    from collections.abc import Sequence

    from polis.bots.knowledge import Knowledge
    from polis.bots.mcts import MctsAgent
    from polis.core.moves import Move
    from polis.core.view import View

    class Ranked(Knowledge):
        root_width = 1

        def move_values(self, view: View, legal: Sequence[Move], rng: random.Random) -> list[float]:
            return [-float(m.amount) for m in legal]  # type: ignore[attr-defined]

    played: set[Move] = set()
    for seed in range(3):
        state = GAME.new_game("basic", 2, seed=seed)
        legal = state.legal_moves()
        ranked = sorted(legal, key=lambda m: m.amount)
        for width in (None, 1, len(legal)):
            agent = MctsAgent(random.Random(seed), width=width)
            agent._knowledge = Ranked(GAME)
            move = agent.act(state.view(0), legal, GAME, Budget(iterations=80))
            if width is None or width == 1:
                assert move == ranked[0]  # the only move at the root
            played.add(move)
    assert len(played) > 1  # with every move at the root, the search plays others too
