"""Hypothesis properties over random legal games: both modes, 2-4 players, both A5 options."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from quadro_helpers import codes, snapshot, stack

from polis.core.events import event_log
from polis.games.quadropolis.game import GAME
from polis.games.quadropolis.moves import DISCARD, NOTHING
from polis.games.quadropolis.site import GEOMETRY, SELECT, SPOT_NAMES, site_square_name
from polis.games.quadropolis.state import QuadropolisState
from polis.games.quadropolis.tiles import FACE_UP, T_EN, T_INH, TILE_INDEX, TILES

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
            for m in legal:
                if m.target != NOTHING:
                    builds.setdefault((m.architect, m.spot), set()).update(
                        [m.target] if m.builds else []
                    )
            for (k, s), targets in builds.items():
                tile = state.offer(k, s)
                assert tile >= 0 and set(state.targets(me, k, tile)) == targets
        if step in probe:
            for p in (None, int(rng.random() * players)):
                view = state.view(p)
                text = json.dumps(view.to_json())
                assert not any(tid in text for tid in _hidden(state))
                guess = GAME.determinize(view, random.Random(step))
                assert guess.view(p) == view
                assert guess.view(p).to_json() == view.to_json()
                assert guess.legal_moves() == legal
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
    size = GEOMETRY[mode].size
    built = [t for p in range(players) for q in range(size) for t in stack(state, p, q)]
    taken = built + list(state.view(None).discarded)
    assert len(taken) == len(set(taken))
    assert len(taken) == sum(1 for m in state.history if m.target != NOTHING)
    layouts = [TILE_INDEX[tid] for layout in state.setup()["rounds"] for tid in layout]
    assert set(taken) <= set(layouts)
    up = FACE_UP[players]
    assert all(up[t] for t in taken)  # face-down tiles never leave the site
    # Resources gained equal the gives of the tiles built.
    for p in range(players):
        tiles = [t for q in range(size) for t in stack(state, p, q)]
        assert state.resources(p) == (sum(T_INH[t] for t in tiles), sum(T_EN[t] for t in tiles))
        assert codes(state, p).count(".") == size - sum(
            1 for q in range(size) if stack(state, p, q)
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
    assert record["result"] == state.result().to_json() == again.result().to_json()
    result = state.result()
    assert sorted(p for group in result.ranking for p in group) == list(range(players))
    view = state.view(0)
    assert GAME.determinize(view, random.Random(1)).view(0) == view


@SETTINGS
@given(games)
def test_events_tell_what_each_move_did(params: tuple[str, int, int, str]) -> None:
    """``play`` = ``apply`` plus events that match the state change, all public, in order;
    ``event_log`` rebuilds the same stream by replay."""
    mode, players, seed, face_down = params
    state = GAME.new_game(mode, players, seed=seed, options={"face_down_tiles": face_down})
    twin = state.clone()
    rng = random.Random(seed)
    names = GEOMETRY[mode].names
    stream = list(state.opening_events())
    rounds = 1
    while not state.is_terminal():
        player, round_no, mayor = state.current_player(), state.round_number, twin.view(None).mayor
        move = state.random_move(rng)
        events = state.play(move)
        twin.apply(move)
        assert state.view(None) == twin.view(None)
        assert all(e.to is None for e in events)
        view = state.view(None)
        keys = [e.key for e in events]
        placed, urbanist, taken = events[:3]
        square = site_square_name(SELECT[move.spot][move.architect])
        assert placed.key == "architect_placed" and placed.params == {
            "player": player,
            "architect": move.architect,
            "spot": SPOT_NAMES[move.spot],
            "square": square,
        }
        assert urbanist.to_json() == {"key": "urbanist_moved", "params": {"square": square}}
        assert taken.params["player"] == player and taken.params["square"] == square
        if move.target == NOTHING:
            assert taken.key == "nothing_taken"
            assert taken.params["reason"] in ("empty", "face_down")
        elif move.target == DISCARD:
            assert taken.key == "tile_discarded"
            assert taken.params["tile"] == TILES[view.discarded[-1]].id
        else:
            assert taken.key == "building_built"
            assert taken.params["city_square"] == names[move.target]
            size = GEOMETRY[mode].size
            tile = view.stacks[player * size + move.target][-1]
            assert taken.params["tile"] == TILES[tile].id
            assert taken.params["code"] == TILES[tile].code
            assert taken.params["floors"] == state.floors_at(player, move.target)
        if view.mayor != mayor:
            assert events[3].to_json() == {
                "key": "mayor_moved",
                "params": {"player": player, "from": mayor},
            }
        else:
            assert "mayor_moved" not in keys
        if state.is_terminal():
            assert keys[-2:] == ["round_ended", "game_ended"]
        elif state.round_number != round_no:
            rounds += 1
            assert keys[-3:] == ["round_ended", "round_started", "site_revealed"]
            assert events[-2].params == {"round": rounds, "first_player": view.first_player}
            assert events[-1].params["layout"] == view.to_json()["public_rounds"][-1]
        else:
            assert "round_ended" not in keys
        stream.extend(events)
    assert rounds == (4 if mode == "classic" else 5)
    assert [e.key for e in stream].count("architect_placed") == len(state.history)
    for seat in (None, 0):
        assert event_log(state, seat) == stream
