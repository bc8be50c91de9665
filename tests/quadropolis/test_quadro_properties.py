"""Hypothesis properties over random legal games: both modes, 2-4 players, both A5 options."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from quadro_helpers import snapshot

from polis.games.quadropolis.game import GAME
from polis.games.quadropolis.moves import NOTHING
from polis.games.quadropolis.state import QuadropolisState
from polis.games.quadropolis.tiles import FACE_UP, T_EN, T_INH, TILE_INDEX

games = st.tuples(
    st.sampled_from(["classic", "expert"]),
    st.integers(2, 4),
    st.integers(0, 2**32 - 1),
    st.sampled_from(["empty", "unselectable"]),
)
SETTINGS = settings(max_examples=25, deadline=None)


def _hidden(state: QuadropolisState) -> list[str]:
    up = FACE_UP[state.num_players]
    current = state.round_number - 1
    return [
        tid
        for r, layout in enumerate(state.setup()["rounds"])
        for tid in layout
        if r > current or not up[TILE_INDEX[tid]]
    ]


def _play(mode: str, players: int, seed: int, face_down: str) -> QuadropolisState:
    state = GAME.new_game(mode, players, seed=seed, options={"face_down_tiles": face_down})
    rng = random.Random(seed)
    per_round: Counter[tuple[int, int]] = Counter()
    probe = {int(rng.random() * 4 * players * 4) for _ in range(2)}
    step = 0
    while not state.is_terminal():
        legal = state.legal_moves()
        assert legal and len(set(legal)) == len(legal)
        assert state.turns_played == step
        move = state.random_move(rng)
        assert move in legal
        if step % 7 == 0:  # every listed move applies (checked on a sample of positions)
            for m in legal:
                state.clone().apply(m)
            # The bots' offer/targets accessors describe exactly the listed builds.
            me = state.current_player()
            builds: dict[tuple[int, int], set[int]] = {}
            for k, s, target in legal:  # type: ignore[misc]
                if target != NOTHING:
                    builds.setdefault((k, s), set()).update([target] if target >= 0 else [])
            for (k, s), targets in builds.items():
                tile = state.offer(k, s)
                assert tile >= 0 and set(state.targets(me, k, tile)) == targets
        if step in probe:
            for p in (None, int(rng.random() * players)):
                view = state.view(p)
                text = json.dumps(view)
                assert not any(tid in text for tid in _hidden(state))
                guess = GAME.determinize(view, random.Random(step))
                assert guess.view(p) == view
        per_round[(state.round_number, state.current_player())] += 1
        state.apply(move)
        step += 1
    assert set(per_round.values()) == {4}
    assert len(per_round) == players * (4 if mode == "classic" else 5)
    return state


@SETTINGS
@given(games)
def test_random_games_keep_the_rules(params: tuple[str, int, int, str]) -> None:
    mode, players, seed, face_down = params
    state = _play(mode, players, seed, face_down)
    # Every tile ends in exactly one place: a city, the discards, or cleared from the site.
    built = [t for p in range(players) for q in range(state._size) for t in state.city_stack(p, q)]
    taken = built + list(state.discards)
    assert len(taken) == len(set(taken))
    assert len(taken) == sum(1 for (_, _, target) in state.moves if target != NOTHING)
    layouts = [TILE_INDEX[tid] for layout in state.setup()["rounds"] for tid in layout]
    assert set(taken) <= set(layouts)
    up = FACE_UP[players]
    assert all(up[t] for t in taken)  # face-down tiles never leave the site
    # Resources gained equal the gives of the tiles built.
    for p in range(players):
        tiles = [t for q in range(state._size) for t in state.city_stack(p, q)]
        assert state.resources(p) == (sum(T_INH[t] for t in tiles), sum(T_EN[t] for t in tiles))
        assert state.city_codes(p).count(".") == state._size - sum(
            1 for q in range(state._size) if state.city_stack(p, q)
        )
        # The bots' allocation-free accessors agree with the scorer's city.
        kinds = state.kinds(p)
        for q, b in enumerate(state.city(p)):
            assert kinds[q] == (b.kind if b else ".")
            assert state.floors_at(p, q) == (b.floors if b else 0)


@SETTINGS
@given(games)
def test_records_replay_to_the_same_result(params: tuple[str, int, int, str]) -> None:
    mode, players, seed, face_down = params
    state = GAME.new_game(mode, players, seed=seed, options={"face_down_tiles": face_down})
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(state.random_move(rng))
    record = json.loads(json.dumps(state.to_record(seed=seed)))
    again = GAME.from_record(record)
    assert snapshot(again) == snapshot(state)
    assert again.result() == state.result()
    assert record["result"] == GAME.result_json(state.result())
    result = state.result()
    assert sorted(p for group in result.ranking for p in group) == list(range(players))
    view = state.view(0)
    assert GAME.determinize(view, random.Random(1)).view(0) == view
