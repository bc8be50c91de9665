"""OpenSpiel games: OpenSpiel's own checks, chance nodes, serialization, resampling, bots."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from polis.core.registry import games
from polis.research.openspiel_game import register_games
from polis.research.spiel_arena import play_game, play_match

SPECS = [
    "polis_quadropolis(mode=classic,players=2)",
    "polis_quadropolis(mode=expert,players=4)",
    "polis_metropolys(mode=family,players=3)",
    "polis_metropolys(mode=expert,players=2)",
]


def test_every_registered_game_with_a_chance_model_is_an_openspiel_game() -> None:
    names = register_games()
    assert {"polis_quadropolis", "polis_metropolys"} <= set(names)
    for game in games().values():
        if "chance" in game.plugins:
            assert f"polis_{game.name}" in pyspiel.registered_names()
            loaded = pyspiel.load_game(f"polis_{game.name}")  # the default mode
            assert loaded.get_parameters()["mode"] == game.default_mode
    with pytest.raises(ValueError, match="mode"):
        pyspiel.load_game("polis_metropolys(mode=classic)")


@pytest.mark.slow  # whole games of searching bots
@pytest.mark.parametrize("spec", SPECS)
def test_openspiel_random_sim_test_with_serialization(spec: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=2, serialize=True, verbose=False)


def play_to(state: pyspiel.State, player_moves: int, seed: int) -> pyspiel.State:
    rng = np.random.RandomState(seed)
    done = 0
    while not state.is_terminal() and (done < player_moves or state.is_chance_node()):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            done += 1
    return state


@pytest.mark.parametrize("spec", SPECS)
def test_serialization_round_trip(spec: str) -> None:
    game = pyspiel.load_game(spec)
    state = play_to(game.new_initial_state(), 11, seed=3)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    for copy in (state2, pickle.loads(pickle.dumps(state)), state.clone()):
        assert str(copy) == str(state)
        assert copy.history() == state.history()
        assert copy.legal_actions() == state.legal_actions()
        p = state.current_player()
        assert copy.information_state_string(p) == state.information_state_string(p)
        assert copy.observation_tensor(p) == state.observation_tensor(p)


@pytest.mark.parametrize("spec", SPECS)
def test_same_seed_same_history(spec: str) -> None:
    game = pyspiel.load_game(spec)
    a = play_to(game.new_initial_state(), 10_000, seed=8)
    b = play_to(game.new_initial_state(), 10_000, seed=8)
    assert a.is_terminal() and a.history() == b.history() and a.returns() == b.returns()
    assert sum(a.returns()) == pytest.approx(1.0)


def test_quadropolis_rounds_are_dealt_when_they_start() -> None:
    game = pyspiel.load_game("polis_quadropolis(players=2)")
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 2  # first player
    state.apply_action(1)
    for left in range(25, 0, -1):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == left and sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[0][0])
    assert state.current_player() == 1
    for _ in range(8):  # round 1: 4 turns x 2 players, no chance in between
        assert not state.is_chance_node()
        state.apply_action(state.legal_actions()[0])
    assert state.is_chance_node() and len(state.chance_outcomes()) == 25  # round 2 now


def test_metropolys_set_up_chance_nodes() -> None:
    game = pyspiel.load_game("polis_metropolys(mode=expert,players=3)")
    state = game.new_initial_state()
    nodes = 0
    rng = np.random.RandomState(1)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        actions, probs = zip(*outcomes, strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))
        nodes += 1
    # unused district, 22 tokens x (field, type), 3 area + 3 neighbourhood cards, first player
    assert nodes == 1 + 2 * 22 + 3 + 3 + 1
    setup = state.data.engine.setup()
    assert len(setup["tokens"]) == 22 and len(setup["unused_districts"]) == 1


@pytest.mark.parametrize("spec", SPECS)
def test_resample_from_infostate_keeps_what_the_player_knows(spec: str) -> None:
    game = pyspiel.load_game(spec)
    state = play_to(game.new_initial_state(), 7, seed=5)
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = set()
    for _ in range(6):
        sample = state.resample_from_infostate(p, sampler)
        assert sample.information_state_string(p) == state.information_state_string(p)
        assert sample.observation_tensor(p) == state.observation_tensor(p)
        assert sample.legal_actions() == state.legal_actions()
        worlds.add(str(sample))
        play_to(sample, 10_000, seed=1)  # a sampled world plays on to the end
        assert sample.is_terminal()
    if "metropolys" in spec:
        assert len(worlds) > 1  # opponents' cards are really resampled


@pytest.mark.slow  # whole games of searching bots
def test_mcts_and_ismcts_bots_play_both_games() -> None:
    for spec in ("polis_quadropolis(players=2)", "polis_metropolys(players=2)"):
        game = pyspiel.load_game(spec)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
        bots = [
            mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(1)),
            ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(2)),
        ]
        returns = play_game(game, bots, seed=0)
        assert sorted(returns) in ([0.0, 1.0], [0.5, 0.5])


@pytest.mark.slow  # whole games of searching bots
def test_arena_openspiel_bot_against_polis_bots() -> None:
    game = pyspiel.load_game("polis_metropolys(mode=family,players=3)")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 10, random_state=np.random.RandomState(0))
    result = play_match(game, [bot, "greedy", "random"], games=3, seed=0)
    assert result.games == 3
    assert sum(result.totals) == pytest.approx(3.0)
    assert all(sum(g) == pytest.approx(1.0) for g in result.per_game)
    assert "ISMCTSBot" in result.table()


def test_a_match_of_polis_seats_is_reproducible_from_its_seed() -> None:
    game = pyspiel.load_game("polis_quadropolis(mode=classic,players=2)")
    a = play_match(game, ["greedy", "random"], games=2, seed=7)
    b = play_match(game, ["greedy", "random"], games=2, seed=7)
    assert a.per_game == b.per_game and a.games == 2


def test_public_observer_hides_the_players_own_secret_card() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("polis_metropolys(mode=expert,players=2)")
    state = play_to(game.new_initial_state(), 3, seed=2)
    public = make_observation(
        game,
        pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    private = make_observation(game)
    for p in range(2):
        card = state.data.engine.view(p).area_card
        public.set_from(state, p)
        private.set_from(state, p)
        assert public.dict["area_card"].sum() == 0 and public.dict["neighbourhood_card"].sum() == 0
        assert private.dict["area_card"].sum() == 1
        assert card not in public.string_from(state, p)


def test_rl_environment_runs_a_game() -> None:
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(pyspiel.load_game("polis_quadropolis(players=2)"), seed=0)
    step = env.reset()
    rng = np.random.RandomState(0)
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        step = env.step([int(rng.choice(legal))])
    assert sorted(step.rewards) in ([0.0, 1.0], [0.5, 0.5])


@pytest.mark.parametrize("spec", ["polis_quadropolis(players=3)", "polis_metropolys(players=2)"])
def test_engine_rollout_evaluator_drives_mcts(spec: str) -> None:
    from polis.research.spiel_evaluator import EngineRolloutEvaluator

    game = pyspiel.load_game(spec)
    evaluator = EngineRolloutEvaluator(2, np.random.RandomState(0))
    state = play_to(game.new_initial_state(), 9, seed=1)
    values = evaluator.evaluate(state)
    assert values.shape == (game.num_players(),) and values.sum() == pytest.approx(1.0)
    before = str(state)
    bot = mcts.MCTSBot(game, 2.0, 10, evaluator, random_state=np.random.RandomState(0))
    assert bot.step(state) in state.legal_actions()
    assert str(state) == before  # rollouts run on copies
    if "quadropolis" in spec:  # rollouts deal the rounds to come at random, not in pool order
        engine = state.data.engine
        worlds = [state.data.world(rng) for rng in rngs(4)]
        assert len({str(w.setup()["rounds"][1:]) for w in worlds}) == 4
        for world in worlds:  # the round dealt and the moves played are kept
            assert world.setup()["rounds"][0] == engine.setup()["rounds"][0]
            assert list(world.history) == list(engine.history)


def rngs(k: int) -> list[random.Random]:
    return [random.Random(i) for i in range(k)]


def test_rules_options_are_game_parameters() -> None:
    game = pyspiel.load_game("polis_quadropolis(players=3,face_down_tiles=unselectable)")
    params = game.get_parameters()
    assert params["face_down_tiles"] == "unselectable"
    assert pyspiel.load_game("polis_quadropolis").get_parameters()["face_down_tiles"] == "empty"
    state = play_to(game.new_initial_state(), 5, seed=1)
    assert state.data.engine.options()["face_down_tiles"] == "unselectable"
    for copy in (pickle.loads(pickle.dumps(state)), state.clone()):
        assert copy.data.engine.options()["face_down_tiles"] == "unselectable"
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert restored.data.engine.options() == state.data.engine.options()
    world = state.data.world(random.Random(0))
    assert world.options()["face_down_tiles"] == "unselectable"
    metro = pyspiel.load_game("polis_metropolys(lake_groups=per_three,field_51_outskirts=false)")
    pyspiel.random_sim_test(metro, num_sims=1, serialize=True, verbose=False)
    with pytest.raises(ValueError, match="face_down_tiles"):
        pyspiel.load_game("polis_quadropolis(face_down_tiles=sometimes)")
    with pytest.raises(Exception, match="Unknown parameter"):
        pyspiel.load_game("polis_metropolys(colour=red)")
