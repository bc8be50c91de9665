"""The research adapters read games only through the protocol: a game they have never heard
of (the toy game with an encoder and a chance model, ``toy_research.py``) passes the same
upstream checks as the real games."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import ismcts
from pettingzoo.test import api_test, seed_test

from polis.research.gym_env import PolisGymEnv
from polis.research.openspiel_game import register
from polis.research.pettingzoo_env import PolisAECEnv
from polis.research.spiel_arena import play_match
from polis.research.spiel_evaluator import EngineRolloutEvaluator
from research.toy_research import GAME

SPIEL_NAME = register(GAME)


def test_the_toy_is_registered_with_pyspiel_under_its_own_name() -> None:
    assert f"polis_{GAME.name}" == SPIEL_NAME
    game = pyspiel.load_game(SPIEL_NAME)
    assert game.num_distinct_actions() == len(GAME.action_space(GAME.default_mode))
    assert game.get_parameters()["mode"] == GAME.default_mode


@pytest.mark.parametrize("players", [2, 3])
def test_openspiel_random_sim_test(players: int) -> None:
    game = pyspiel.load_game(SPIEL_NAME, {"players": players})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_pettingzoo_api_and_seed_tests() -> None:
    api_test(PolisAECEnv(GAME, players=3), num_cycles=30)
    seed_test(lambda: PolisAECEnv(GAME, players=2), num_cycles=30)


def test_gymnasium_check_env() -> None:
    check_env(PolisGymEnv(GAME, players=2, opponents="random"))


def test_other_players_secret_words_stay_out_of_the_information_state() -> None:
    game = pyspiel.load_game(SPIEL_NAME, {"players": 3})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [o for o, _ in state.chance_outcomes()]
            state.apply_action(int(rng.choice(outcomes)))
            continue
        secrets = state.data.engine.setup()["secrets"]
        for p in range(3):
            known = state.information_state_string(p)
            assert secrets[p] in known  # the test can fail: own secrets do show
            assert not any(secrets[q] in known for q in range(3) if q != p)
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_ismcts_with_the_engine_rollouts_against_a_polis_bot() -> None:
    game = pyspiel.load_game(SPIEL_NAME, {"players": 2})
    evaluator = EngineRolloutEvaluator(2, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 20, random_state=np.random.RandomState(0))
    result = play_match(game, [bot, "random"], games=4, seed=1)
    assert result.games == 4 and sum(result.totals) == pytest.approx(4.0)
