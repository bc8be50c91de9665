"""One test per rule of spec §3-§7 and per way a move can be illegal (state left unchanged)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from quadro_helpers import codes, find_tile, move, new, put_city, snapshot, stack

from polis.core.errors import IllegalMove
from polis.core.events import Event
from polis.core.protocol import TERMINAL
from polis.games.metropolys.moves import PASS
from polis.games.quadropolis.moves import DISCARD, NOTHING, find
from polis.games.quadropolis.site import SELECT, SPOT_INDEX
from polis.games.quadropolis.state import QuadropolisState
from polis.games.quadropolis.tiles import FACE_UP, TILE_INDEX, TILES
from polis.games.quadropolis.view import FACE_DOWN

L1, L2, L3, L4, L5 = (SPOT_INDEX[f"L{i}"] for i in range(1, 6))
T1, T4 = SPOT_INDEX["T1"], SPOT_INDEX["T4"]
TOWER = find_tile("classic", 1, 4, type="tower_block", mayor=False)
SHOP = find_tile("classic", 1, 4, type="shop")
MAYOR = find_tile("classic", 1, 4, type="tower_block", mayor=True)
FACTORY = find_tile("classic", 1, 4, type="factory")


def illegal(state: QuadropolisState, m: Any, match: str) -> None:
    """``m`` (a move, or text in notation) is refused naming the rule; nothing changes."""
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=match):
        if isinstance(m, str):
            state.apply_str(m)
        else:
            state.apply(m)
    assert snapshot(state) == before
    if not isinstance(m, str):
        with pytest.raises(IllegalMove, match=match):
            state.play(m)
        assert snapshot(state) == before


def play(state: QuadropolisState, text: str) -> None:
    state.apply_str(text)


# -- §5.1 architects and spots ----------------------------------------------------------------
def test_classic_architect_used_once_per_round() -> None:
    s = new("classic", 2)
    play(s, "3L1 x")
    play(s, "1L2 x")
    illegal(s, s.parse_move("3L3 x"), "architect 3 is already used this round")


def test_classic_architects_per_player_are_separate() -> None:
    s = new("classic", 2)
    play(s, "3L1 x")
    play(s, "3L3 x")  # the other player's own #3
    view = s.view(None)
    assert [view.architects(p) for p in range(2)] == [[1, 2, 4], [1, 2, 4]]
    assert view.to_json()["architects"] == [[1, 2, 4], [1, 2, 4]]


def test_expert_pool_shared_and_exhausted() -> None:
    s = new("expert", 2)
    play(s, "5L1 x")
    play(s, "5L2 x")
    assert s.view(None).pool[5] == 0 and s.view(None).to_json()["pool"]["5"] == 0
    illegal(s, s.parse_move("5L3 x"), "no architect 5 is left in the pool")


def test_expert_same_player_reuses_a_number() -> None:
    s = new("expert", 2)
    play(s, "2L1 x")  # player 0
    play(s, "1L2 x")  # player 1
    play(s, "2L3 x")  # player 0 again with a #2
    assert s.view(None).pool[2] == 0


@pytest.mark.parametrize(
    ("mode", "k"), [("classic", 5), ("classic", 0), ("expert", 6), ("expert", 0)]
)
def test_architect_number_out_of_range(mode: str, k: int) -> None:
    s = new(mode, 3)
    illegal(s, f"{k}L1 x", f"there is no architect {k} in {mode} mode")


def test_spot_occupied() -> None:
    s = new("classic", 2)
    play(s, "1L2 x")
    illegal(s, s.parse_move("2L2 x"), "an architect already occupies the left end of row 2")
    illegal(s, s.parse_move("2R2 x"), "the Urbanist blocks row 2")


def test_urbanist_blocks_row_and_column() -> None:
    s = new("classic", 2)
    play(s, "2L3 x")  # Urbanist on r3c2
    assert s.view(None).urbanist == 11 and s.view(None).to_json()["urbanist"] == "r3c2"
    illegal(s, s.parse_move("1R3 x"), "the Urbanist blocks row 3")
    illegal(s, s.parse_move("1T2 x"), "the Urbanist blocks column 2")
    illegal(s, s.parse_move("1B2 x"), "the Urbanist blocks column 2")
    play(s, "1R1 x")


def test_urbanist_off_the_board_at_round_start() -> None:
    s = new("classic", 2)
    assert s.view(None).urbanist == -1 and s.view(None).to_json()["urbanist"] is None
    assert {m.spot for m in s.legal_moves()} == set(range(20))
    rng = random.Random(3)
    for _ in range(8):
        s.apply(s.random_move(rng))
    assert s.view(None).round == 2 and s.view(None).urbanist == -1
    assert {m.spot for m in s.legal_moves()} == set(range(20))


@pytest.mark.parametrize(
    "garbage",
    [
        "3L4 r2c1",  # text is parsed by apply_str, never by apply
        (3, SPOT_INDEX["L4"], 4),  # the tuples of before moves were objects
        (1, 2),
        None,
        3,
        1.5,
        True,
        PASS,  # another game's move
        find("expert", 1, L1, 16),  # a square the classic city does not have
        find("expert", 5, L1, DISCARD),  # an architect Classic does not have
        find("expert", 1, L1, DISCARD),  # legal in Expert, but not a Classic move
    ],
    ids=repr,
)
def test_not_a_move(garbage: object) -> None:
    s = new()
    before = snapshot(s)
    for apply in (s.apply, s.play):
        with pytest.raises(IllegalMove, match="is not a Quadropolis classic move"):
            apply(garbage)
        assert snapshot(s) == before
    assert s.legal_moves()  # the state still plays
    s.apply(s.legal_moves()[0])


# -- §5.2-§5.4 taking, Urbanist, target consistency -------------------------------------------
def test_empty_square_takes_nothing_but_moves_urbanist() -> None:
    s = new("classic", 2)
    play(s, "1L1 x")  # player 0 takes r1c1
    play(s, "2L3 x")
    play(s, "2L2 x")  # the Urbanist (r2c2) no longer blocks column 1
    illegal(s, s.parse_move("1T1 x"), "line 1, column 1 of the construction site, which is empty")
    illegal(s, s.parse_move("1T1 r1c1"), "nothing is taken")
    before = s.resources(1)
    play(s, "1T1 -")  # placement is mandatory even onto an empty square (A4)
    assert s.view(None).urbanist == 0 and s.resources(1) == before


def test_face_up_tile_must_be_built_or_discarded() -> None:
    s = new("classic", 4, fixed={1: {0: SHOP.id}})
    illegal(
        s,
        move(s, 1, L1, NOTHING),
        "takes the Shop from line 1, column 1 of the construction site: build it in your city",
    )


def test_face_down_square_behaves_like_empty() -> None:
    down = find_tile("classic", 1, 2, face_up=False)
    s = new("classic", 2, fixed={1: {0: down.id}})
    view = s.view(0)
    assert view.site[0] == FACE_DOWN and view.backs[0] == down.back
    assert view.to_json()["site"][0] == {"square": "r1c1", "state": "face-down", "back": down.back}
    illegal(s, move(s, 1, L1, DISCARD), "holds a face-down tile, which is not in play")
    s.apply(move(s, 1, L1, NOTHING))
    assert s.setup_data.rounds[0][0] == down.index
    assert s.view(None).site[0] == FACE_DOWN  # the tile stays on its square
    assert s.view(None).urbanist == 0


def test_face_down_unselectable_option() -> None:
    down = find_tile("classic", 1, 2, face_up=False)
    s = new("classic", 2, fixed={1: {0: down.id}}, options={"face_down_tiles": "unselectable"})
    illegal(s, move(s, 1, L1, NOTHING), "face-down tiles may not be selected")
    assert all(SELECT[m.spot][m.architect] != 0 for m in s.legal_moves())
    # If every free spot of every architect left points at a face-down tile, placement stays
    # mandatory: the face-down square may then be selected.
    s._used[0] = 0b11100  # test position, set directly: only architect 1 left
    s._occupied = ((1 << 20) - 1) & ~(1 << L1)
    assert list(s.legal_moves()) == [move(s, 1, L1, NOTHING)]
    s.apply(move(s, 1, L1, NOTHING))


def test_discard_always_allowed_and_gives_nothing() -> None:
    s = new("classic", 4, fixed={1: {0: MAYOR.id}})
    assert move(s, 1, L1, 0) in s.legal_moves()
    s.apply(move(s, 1, L1, DISCARD))
    view = s.view(None)
    assert s.resources(0) == (0, 0) and view.mayor == 0 and view.discarded == (MAYOR.index,)
    assert codes(s, 0) == ["."] * 16


# -- §5.5 resources, §5.6 Mayor ---------------------------------------------------------------
def test_resources_gained_when_built_each_floor() -> None:
    s = new("classic", 4, fixed={1: {0: TOWER.id, 6: FACTORY.id}})
    s.apply(move(s, 1, L1, 0))  # tower on r1c1 (row 1)
    assert s.resources(0) == (TOWER.inhabitants, TOWER.energy)
    assert codes(s, 0)[0] == "T"
    s.apply(move(s, 1, L3, DISCARD))
    s.apply(move(s, 1, L4, DISCARD))
    s.apply(move(s, 1, L5, DISCARD))
    s.apply(move(s, 2, L2, 1))  # factory r2c2 -> r1c2 (column 2)
    assert s.resources(0) == (TOWER.inhabitants, TOWER.energy + FACTORY.energy)


def test_mayor_tile_gives_first_player_next_round() -> None:
    s = new("classic", 3, first=0, fixed={1: {5: MAYOR.id}})
    s.apply(move(s, 1, L3, DISCARD))  # player 0
    s.apply(move(s, 1, L2, 4))  # player 1 builds the Mayor tile (r2c1) on r2c1
    assert s.view(None).mayor == 1
    assert s.current_player() == 2  # this round's order is unchanged
    order = [s.current_player()]
    rng = random.Random(1)
    while s.view(None).round == 1:
        s.apply(s.random_move(rng))
        order.append(s.current_player())
    assert order[:10] == [2, 0, 1, 2, 0, 1, 2, 0, 1, 2]
    assert s.view(None).first_player == 1 == s.current_player()


def test_mayor_stays_when_nobody_builds_it() -> None:
    s = new("classic", 2, first=1)
    rng = random.Random(5)
    while s.view(None).round == 1:
        m = s.random_move(rng)
        s.apply(move(s, m.architect, m.spot, DISCARD if m.builds else m.target))
    assert s.view(None).mayor == 1 and s.current_player() == 1


# -- §6 city placement ------------------------------------------------------------------------
def test_square_out_of_reach() -> None:
    s = new("classic", 4, fixed={1: {1: SHOP.id}})
    illegal(s, move(s, 2, L1, 10), "architect 2 may build only in row 2 or column 2; r3c3 is not")
    s = new("expert", 4, fixed={1: {1: find_tile("expert", 1, 4, type="shop").id}})
    illegal(
        s,
        move(s, 2, L1, 15),
        "architect 2 may build only on a square numbered 2 or in district 2; r4c1",
    )


def test_square_occupied_by_another_type() -> None:
    s = new("classic", 4, fixed={1: {1: TOWER.id}})
    put_city(s, 0, 1, SHOP.id)
    illegal(s, move(s, 2, L1, 1), "r1c2 of your city is already occupied by a Shop")
    put_city(s, 0, 5, FACTORY.id)
    illegal(s, move(s, 2, L1, 5), "occupied by a Factory")


def test_non_stackable_on_same_type() -> None:
    s = new("classic", 4, fixed={1: {1: SHOP.id}})
    put_city(s, 0, 1, SHOP.id)
    illegal(s, move(s, 2, L1, 1), "already occupied by a Shop")


def test_stack_condition_a_any_floor_in_reach() -> None:
    s = new("classic", 4, fixed={1: {1: TOWER.id}})
    put_city(s, 0, 1, TOWER.id, 3)  # r1c2, column 2: any floor with architect 2
    s.apply(move(s, 2, L1, 1))
    assert codes(s, 0)[1] == "T4" and len(stack(s, 0, 1)) == 4


def test_stack_condition_b_floor_number() -> None:
    s = new("classic", 4, fixed={1: {1: TOWER.id}})
    put_city(s, 0, 15, TOWER.id, 1)  # r4c4, out of reach of #2, becomes floor 2
    put_city(s, 0, 10, TOWER.id, 2)  # r3c3, would become floor 3
    assert move(s, 2, L1, 15) in s.legal_moves()
    illegal(s, move(s, 2, L1, 10), "would be floor 3")
    s.apply(move(s, 2, L1, 15))
    assert codes(s, 0)[15] == "T2"


def test_stack_max_height() -> None:
    s = new("classic", 4, fixed={1: {1: TOWER.id}})
    put_city(s, 0, 1, TOWER.id, 4)
    illegal(s, move(s, 2, L1, 1), "already has 4 floors, the maximum")
    tower = find_tile("expert", 1, 4, type="tower_block", mayor=False)
    s = new("expert", 4, fixed={1: {1: tower.id}})
    put_city(s, 0, 0, tower.id, 4)  # r1c1 is numbered 2: Expert towers reach 5 floors
    s.apply(move(s, 2, L1, 0))
    assert codes(s, 0)[0] == "T5"


def test_expert_office_towers_stack_only_on_office_towers() -> None:
    office = find_tile("expert", 1, 4, type="office_tower")
    tower = find_tile("expert", 1, 4, type="tower_block", mayor=False)
    s = new("expert", 4, fixed={1: {1: office.id}})
    put_city(s, 0, 0, tower.id, 1)
    put_city(s, 0, 13, office.id, 1)  # r3c4: district 3, not reachable by #2, floor 2 = #2
    illegal(s, move(s, 2, L1, 0), "occupied by a Tower Block")
    s.apply(move(s, 2, L1, 13))
    assert codes(s, 0)[13] == "O2"


# -- §4 rounds and the end of the game --------------------------------------------------------
@pytest.mark.parametrize(("mode", "players"), [("classic", 2), ("classic", 4), ("expert", 3)])
def test_rounds_turns_and_end(mode: str, players: int) -> None:
    s = new(mode, players, first=1)
    rng = random.Random(11)
    rounds = 4 if mode == "classic" else 5
    for r in range(1, rounds + 1):
        first = s.current_player()
        assert s.view(None).round == r
        seen = []
        for _ in range(4 * players):
            seen.append(s.current_player())
            s.apply(s.random_move(rng))
        assert seen == [(first + i) % players for i in range(4 * players)]
        if r < rounds:
            v = s.view(None)
            assert v.urbanist == -1 and v.round == r + 1
            assert v.spots == (0,) * 20
            assert all(x["architect"] is None for x in v.to_json()["spots"])
    assert s.current_player() == TERMINAL and len(s.legal_moves()) == 0
    illegal(s, move(s, 1, L1, NOTHING), "the game is over")


def test_round_end_clears_the_site() -> None:
    s = new("classic", 2)
    rng = random.Random(2)
    for _ in range(8):
        s.apply(s.random_move(rng))
    # Round 2's layout as dealt, square by square; face-down tiles show only their backs.
    dealt = [TILE_INDEX[t] for t in s.setup()["rounds"][1]]
    up = FACE_UP[2]
    view = s.view(None)
    assert view.site == tuple(t if up[t] else FACE_DOWN for t in dealt) == view.public_rounds[1]
    assert view.backs == tuple(None if up[t] else TILES[t].back for t in dealt)
    assert FACE_DOWN in view.site


def test_placement_is_always_possible() -> None:
    rng = random.Random(9)
    for seed in range(5):
        s = new("expert", 4, first=seed % 4)
        while not s.is_terminal():
            moves = s.legal_moves()
            assert moves
            s.apply(moves[int(rng.random() * len(moves))])
    assert TILES  # tables loaded once


# -- engine events: what happened, in order, for every seat ------------------------------------
def keys(events: tuple[Event, ...]) -> list[str]:
    return [e.key for e in events]


def test_opening_events_start_the_game_and_reveal_the_first_site() -> None:
    down = find_tile("classic", 1, 2, face_up=False)
    s = new("classic", 2, first=1, fixed={1: {24: down.id}})
    events = s.opening_events()
    assert keys(events) == ["game_started", "round_started", "site_revealed"]
    assert events[0].params == {"mode": "classic", "players": 2, "first_player": 1}
    assert events[1].params == {"round": 1, "first_player": 1}
    layout = events[2].params["layout"]
    assert layout[24] is None and layout == s.view(None).to_json()["public_rounds"][0]
    assert all(e.to is None for e in events)  # Quadropolis hides nothing from anybody


def test_building_built_names_the_tile_and_the_city_square() -> None:
    s = new("classic", 4, first=2, fixed={1: {0: TOWER.id}})
    events = s.play(move(s, 1, L1, 4))  # architect 1 at L1 takes r1c1, builds on r2c1
    assert [e.to_json() for e in events] == [
        {
            "key": "architect_placed",
            "params": {"player": 2, "architect": 1, "spot": "L1", "square": "r1c1"},
        },
        {"key": "urbanist_moved", "params": {"square": "r1c1"}},
        {
            "key": "building_built",
            "params": {
                "player": 2,
                "tile": TOWER.id,
                "kind": "tower_block",
                "code": "T",
                "square": "r1c1",
                "city_square": "r2c1",
                "floors": 1,
            },
        },
    ]
    assert stack(s, 2, 4) == (TOWER.index,)


def test_building_built_counts_the_floors_of_a_stack() -> None:
    s = new("classic", 4, fixed={1: {1: TOWER.id}})
    put_city(s, 0, 1, TOWER.id, 3)
    (built,) = [e for e in s.play(move(s, 2, L1, 1)) if e.key == "building_built"]
    assert built.params["city_square"] == "r1c2" and built.params["floors"] == 4


def test_discard_and_nothing_taken_events() -> None:
    down = find_tile("classic", 1, 2, face_up=False)
    s = new("classic", 2, fixed={1: {0: SHOP.id, 6: down.id}})
    events = s.play(move(s, 1, L1, DISCARD))
    assert keys(events) == ["architect_placed", "urbanist_moved", "tile_discarded"]
    assert events[2].params == {
        "player": 0,
        "tile": SHOP.id,
        "kind": "shop",
        "code": "S",
        "square": "r1c1",
    }
    events = s.play(move(s, 2, L2, NOTHING))  # r2c2 holds a face-down tile
    assert events[2].key == "nothing_taken"
    assert events[2].params == {"player": 1, "square": "r2c2", "reason": "face_down"}
    s.apply_str("3L3 x")
    events = s.play(s.parse_move("1T1 -"))  # r1c1 was emptied by the first move
    assert events[2].params == {"player": 1, "square": "r1c1", "reason": "empty"}


def test_mayor_moved_when_the_mayor_tile_is_built() -> None:
    s = new("classic", 3, first=0, fixed={1: {5: MAYOR.id}})
    assert "mayor_moved" not in keys(s.play(move(s, 1, L3, DISCARD)))
    events = s.play(move(s, 1, L2, 4))  # player 1 builds the Mayor tile
    assert keys(events)[-1] == "mayor_moved"
    assert events[-1].params == {"player": 1, "from": 0}


def test_round_end_is_followed_by_the_next_round_and_its_site() -> None:
    s = new("classic", 2, first=0)
    rng = random.Random(4)
    for _ in range(7):
        assert "round_ended" not in keys(s.play(s.random_move(rng)))
    events = s.play(s.random_move(rng))
    tail = keys(events)[keys(events).index("round_ended") :]
    assert tail == ["round_ended", "round_started", "site_revealed"]
    ended, started, revealed = events[-3:]
    assert ended.params == {"round": 1}
    assert started.params == {"round": 2, "first_player": s.view(None).first_player}
    assert started.params["first_player"] == s.current_player() == s.view(None).mayor
    up = FACE_UP[2]
    dealt = [TILE_INDEX[t] for t in s.setup()["rounds"][1]]
    assert revealed.params == {
        "round": 2,
        "layout": [TILES[t].id if up[t] else None for t in dealt],
    }
    assert None in revealed.params["layout"]  # face-down squares are null


def test_last_move_ends_the_game_with_the_result() -> None:
    s = new("expert", 2)
    rng = random.Random(6)
    events: tuple[Event, ...] = ()
    while not s.is_terminal():
        events = s.play(s.random_move(rng))
    assert keys(events)[-2:] == ["round_ended", "game_ended"]
    result = s.result()
    assert events[-2].params == {"round": 5}
    assert events[-1].params == {
        "scores": list(result.scores),
        "ranking": [list(g) for g in result.ranking],
    }
    assert "round_started" not in keys(events) and "site_revealed" not in keys(events)
