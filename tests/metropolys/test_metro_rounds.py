"""Bidding rounds (spec §5-§7) on the worked examples, and every way a move can be illegal."""

from __future__ import annotations

from typing import Any

import pytest
from metro_helpers import example, new_state, put_built, win_round

from polis.core.errors import IllegalMove, NotationError
from polis.core.events import Event, event_log, visible
from polis.games.metropolys.moves import PASS, SPACE, bid
from polis.games.metropolys.state import MetropolysState
from polis.games.quadropolis.moves import parse_move as quadropolis_move

FULL = tuple(range(1, 14))


def snapshot(state: MetropolysState) -> tuple[Any, ...]:
    return (
        state.view(None),
        *(state.view(p) for p in range(state.num_players)),
        list(state.history),
        [state.token_at(f) for f in range(55)],
        state.setup(),
    )


def texts(state: MetropolysState) -> list[str]:
    return [m.text for m in state.history]


def test_bid_01_rulebook_round() -> None:
    ex = example("BID-01")
    blue, grey, red, white = 0, 1, 2, 3
    state = new_state(
        players=4,
        first=blue,
        tokens={3: "chic", 0: "metro"},
        avoid=[9, 4, 22, 5],
        area=["statues", "lakes", "bridges", "outskirts"],
    )
    put_built(state, white, 5, 2)
    seen_red_options = None
    for action in ex["actions"]:
        who = ["blue", "grey", "red", "white"].index(action["player"])
        assert state.current_player() == who
        if action["player"] == "red" and action["field"] == 3:
            seen_red_options = state.legal_moves()
        if action["action"] == "pass":
            state.apply_str("pass")
        else:
            state.apply_str(f"{action['value']}@{action['field']}")
    # Only field 3 is free next to Grey's 7 on field 4 (5 built, 9 holds Blue's bid).
    assert seen_red_options is not None
    assert list(seen_red_options) == [PASS] + [bid(v, 3) for v in range(8, 14)]
    assert state.building_at(22) == (red, 11, True)
    assert state.token_at(3) == "chic" and state.token_at(0) == "metro"
    assert all(state.building_at(f) is None for f in (9, 4, 3, 0))
    assert state.supply(blue) == FULL and state.supply(grey) == FULL
    assert list(state.supply(red)) == ex["expected"]["red_supply_after"]
    assert 2 not in state.supply(white) and len(state.supply(white)) == 12
    assert state.collected(red) == {"chic": 0, "metro": 0, "archaeology": 0}
    assert state.current_player() == red and state.start_player == red
    assert not state.bids and not state.passed
    # The next opening may be anywhere free, e.g. far away in the south.
    assert bid(1, 40) in state.legal_moves()
    assert PASS not in state.legal_moves()


def test_bid_02_cheap_win_on_isolated_field() -> None:
    state = new_state(players=4, first=1, tokens={8: "chic"}, avoid=[7, 9])
    put_built(state, 0, 7, 4)
    put_built(state, 2, 9, 6)
    state.apply_str("1@8")
    assert state.building_at(8) == (1, 1, True)
    assert state.collected(1)["chic"] == 1 and state.token_at(8) is None
    assert state.current_player() == 1 and state.start_player == 1
    assert texts(state) == ["1@8"] and list(state.history) == [bid(1, 8)]


def test_bid_03_thirteen_ends_the_round() -> None:
    state = new_state(players=3, unused=["west"], first=0, avoid=[17, 18])
    state.apply_str("12@17")
    state.apply_str("13@18")
    assert state.building_at(18) == (1, 13, True)
    assert state.building_at(17) is None and 12 in state.supply(0)
    assert state.current_player() == 1 and texts(state) == ["12@17", "13@18"]


def test_condition_c_generalised_no_opponent_has_higher() -> None:
    state = new_state(players=2, unused=["south", "west"], first=1)
    put_built(state, 0, 15, 13)  # player 0's 13 is already built
    state.apply_str("12@0")
    assert state.building_at(0) == (1, 12, True)
    assert state.current_player() == 1


def test_forced_pass_is_the_only_move_when_round_goes_on() -> None:
    state = new_state(players=3, unused=["west"], first=0)
    for v in range(10, 14):
        put_built(state, 1, [15, 16, 17, 18][v - 10], v)
    state.apply_str("10@0")  # player 1 has nothing above 10, player 2 has
    assert state.current_player() == 1
    assert list(state.legal_moves()) == [PASS]
    state.apply_str("pass")
    assert state.current_player() == 2
    assert len(state.legal_moves()) > 1


def test_opener_plays_again_in_later_trips() -> None:
    state = new_state(players=3, unused=["west"], first=0, avoid=[2, 3, 4, 9])
    state.apply_str("1@2")
    state.apply_str("2@3")
    state.apply_str("3@4")
    assert state.current_player() == 0
    state.apply_str("4@9")
    assert state.current_player() == 1
    state.apply_str("pass")
    assert state.current_player() == 2  # passed players are skipped from now on
    state.apply_str("pass")
    assert state.building_at(9) == (0, 4, True)
    assert state.supply(0) == tuple(v for v in FULL if v != 4)
    assert state.supply(1) == FULL and state.supply(2) == FULL


def test_end_01_thirteenth_building_ends_the_game() -> None:
    state = new_state(players=2, unused=["south", "west"], first=0)
    fields = [15, 16, 17, 18, 19, 20, 22, 23, 24, 25, 26, 27]
    for f, v in zip(fields, [v for v in FULL if v != 7], strict=True):
        put_built(state, 0, f, v)
    assert state.supply(0) == (7,)
    state.apply_str("7@0")
    state.apply_str("pass")
    assert state.is_terminal() and state.current_player() == -1
    assert len(state.legal_moves()) == 0
    with pytest.raises(IllegalMove, match="the game is over"):
        state.apply_str("1@1")
    with pytest.raises(IllegalMove, match="the game is over"):
        state.random_move(__import__("random").Random(0))
    result = state.result()
    assert [p.report["built"] for p in result.players] == [13, 0]
    assert [p.tie_breaks for p in result.players] == [{"built": 13}, {"built": 0}]


def test_card_01_metro_card() -> None:
    metro_fields = [0, 2, 4, 6, 12]
    state = new_state(
        players=2,
        unused=["south", "west"],
        first=0,
        tokens=dict.fromkeys(metro_fields, "metro"),
        avoid=[1, 3, 5],
    )
    a, b = 0, 1
    for step, field in zip(example("CARD-01")["sequence"], metro_fields, strict=True):
        who = a if step["player"] == "A" else b
        win_round(state, who, field)
        counts = {"A": state.collected(a)["metro"], "B": state.collected(b)["metro"]}
        assert counts == step["counts"]
        assert state.metro_card == (a if step["metro_card"] == "A" else b)


def test_archaeology_card_goes_to_latest_taker() -> None:
    arch = [0, 2, 4]
    state = new_state(
        players=2,
        unused=["south", "west"],
        first=0,
        tokens=dict.fromkeys(arch, "archaeology"),
        avoid=[1, 3, 5],
    )
    assert state.archaeology_card is None
    win_round(state, 0, 0)
    assert state.archaeology_card == 0
    win_round(state, 0, 2)
    assert state.archaeology_card == 0
    win_round(state, 1, 4)
    assert state.archaeology_card == 1
    assert state.collected(0)["archaeology"] == 2


# -- illegal moves ---------------------------------------------------------------------------


def in_round() -> MetropolysState:
    """4 players; player 0 opened 3@36, player 1 raised 9@12 (current bid 9 on field 12)."""
    state = new_state(players=4, first=0, avoid=[36, 12, 13])
    put_built(state, 3, 40, 7)
    state.apply_str("3@36")
    state.apply_str("9@12")
    return state


ILLEGAL = [
    ("6@13", "value 6 is not higher than the current bid 9"),
    ("9@13", "value 9 is not higher than the current bid 9"),
    ("10@41", "field 41 is not adjacent to field 12"),
    ("10@36", "field 36 is not free"),
    ("10@40", "field 40 is not free"),
    ("14@13", "there is no building of value 14"),
    ("0@13", "there is no building of value 0"),
    ("10@55", "there is no field 55 on the board"),
    ("10@99", "there is no field 99 on the board"),
]


@pytest.mark.parametrize(("text", "message"), ILLEGAL)
def test_illegal_raise(text: str, message: str) -> None:
    state = in_round()
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=message):
        state.apply_str(text)
    assert snapshot(state) == before


def test_value_already_bid_or_built() -> None:
    state = new_state(players=4, first=0, avoid=[3, 9, 10, 13, 14])
    put_built(state, 2, 40, 11)
    for text in ("3@9", "pass", "4@10", "pass"):
        state.apply_str(text)
    assert state.current_player() == 0
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="building 3 is already on the board"):
        state.apply_str("3@3")
    assert snapshot(state) == before
    state.apply_str("5@13")
    assert state.current_player() == 2
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="you have no building of value 11 left"):
        state.apply_str("11@14")
    assert snapshot(state) == before


def test_opening_bid_is_mandatory() -> None:
    state = new_state(players=3, unused=["north"], first=2)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="the opening bid is mandatory"):
        state.apply_str("pass")
    with pytest.raises(IllegalMove, match="the opening bid is mandatory"):
        state.apply(PASS)
    assert snapshot(state) == before


def test_unused_district_and_bridge_into_it() -> None:
    state = new_state(players=3, unused=["west"], first=0, avoid=[1])
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="field 49 is in the west district, which is not used"):
        state.apply_str("5@49")
    state.apply_str("5@1")
    with pytest.raises(IllegalMove, match="field 49 is in the west district"):
        state.apply_str("6@49")
    assert bid(6, 49) not in state.legal_moves()
    assert snapshot(state)[0].moves == (bid(5, 1),) and before[0].moves == ()


@pytest.mark.parametrize("text", ["", "7", "7@", "@12", "7-12", "seven@12", "7@12@3", "pas", "x"])
def test_not_notation(text: str) -> None:
    state = new_state()
    with pytest.raises(NotationError):
        state.parse_move(text)


@pytest.mark.parametrize(
    "move",
    [
        "7@12",  # text is parsed by apply_str, never by apply
        (7, 12),
        None,
        -5,
        12 << 4 | 7,  # the packed int of "7@12" before moves were objects
        bid(7, 12).id,  # an action id is not a move either
        880,
        3.0,
        True,
        quadropolis_move("classic", "1L1 x"),  # another game's move
    ],
    ids=repr,
)
def test_not_a_move_value(move: object) -> None:
    state = new_state()
    before = snapshot(state)
    for apply in (state.apply, state.play):
        with pytest.raises(IllegalMove):
            apply(move)
        assert snapshot(state) == before
    state.apply(bid(7, 12))  # the real move is legal here


def test_notation_round_trip() -> None:
    state = new_state()
    for text in ("7@12", "13@40", "pass", " 7@12 ", "PASS"):
        move = state.parse_move(text)
        assert str(move) == move.text == text.strip().lower()
        assert SPACE.parse(text) is move
    assert state.parse_move("7@12") is bid(7, 12)
    assert state.parse_move("pass") is PASS and PASS.is_pass


# -- engine events: what happened, in order, and who may see it --------------------------------


def play_all(state: MetropolysState, *texts: str) -> list[Event]:
    """Play ``texts`` with ``play``; the events of all of them, in order."""
    events: list[Event] = []
    for text in texts:
        events += state.play(state.parse_move(text))
    return events


def keyed(events: list[Event], key: str) -> list[dict[str, Any]]:
    return [dict(e.params) for e in events if e.key == key]


def test_cards_dealt_are_seen_only_by_their_player() -> None:
    state = new_state(
        "expert", 3, unused=["west"], first=2,
        area=["chains", "lakes", "bridges"], colours=["red", "gray", "blue"],
    )  # fmt: skip
    opening = state.opening_events()
    assert [e.key for e in opening] == [
        "game_started", "cards_dealt", "cards_dealt", "cards_dealt", "round_started",
    ]  # fmt: skip
    assert opening[0].params == {
        "mode": "expert", "players": 3, "first_player": 2, "unused_districts": ["west"],
    }  # fmt: skip
    assert opening[-1].params == {"round": 1, "player": 2}
    for p, (area, colour) in enumerate([("chains", "red"), ("lakes", "gray"), ("bridges", "blue")]):
        (mine,) = [e for e in visible(opening, p) if e.key == "cards_dealt"]
        assert mine.to == (p,) and not mine.visible_to(None)
        assert mine.params == {"player": p, "area_card": area, "neighbourhood_card": colour}
        assert all(e.visible_to(p) == (e.to is None or e.to == (p,)) for e in opening)
        assert [e for e in event_log(state, p) if e.key == "cards_dealt"] == [mine]
    assert [e.key for e in visible(opening, None)] == ["game_started", "round_started"]
    family = new_state("family", 2, unused=["south", "west"], area=["lakes", "statues"])
    dealt = [e.params for e in family.opening_events() if e.key == "cards_dealt"]
    assert dealt == [{"player": 0, "area_card": "lakes"}, {"player": 1, "area_card": "statues"}]


def test_bid_won_says_who_with_which_value_where_and_why() -> None:
    # (a) everybody else passed: the other bids go back to their owners.
    state = new_state(players=3, unused=["west"], first=0, avoid=[2, 3, 4, 9])
    events = play_all(state, "1@2", "2@3", "3@4", "4@9", "pass", "pass")
    assert [e.key for e in events] == [
        "bid_placed", "bid_raised", "bid_raised", "bid_raised", "player_passed",
        "player_passed", "bid_won", "round_ended", "round_started",
    ]  # fmt: skip
    assert events[0].params == {"player": 0, "value": 1, "field": 2}
    assert events[3].params == {
        "player": 0, "value": 4, "field": 9, "over_field": 4, "over_value": 3,
    }  # fmt: skip
    assert events[4].params == {"player": 1}
    assert keyed(events, "bid_won") == [
        {
            "player": 0, "value": 4, "field": 9, "reason": "all_passed",
            "returned": [
                {"player": 0, "value": 1, "field": 2},
                {"player": 1, "value": 2, "field": 3},
                {"player": 2, "value": 3, "field": 4},
            ],
        }
    ]  # fmt: skip
    assert keyed(events, "round_ended") == [{"round": 1, "player": 0}]
    assert keyed(events, "round_started") == [{"round": 2, "player": 0}]
    assert all(e.to is None for e in events)
    # (c) nobody can go higher than a 13, which is won at once, over the bid it raised.
    state = new_state(players=3, unused=["west"], first=0, avoid=[17, 18])
    events = play_all(state, "12@17", "13@18")
    assert events[1].params == {
        "player": 1, "value": 13, "field": 18, "over_field": 17, "over_value": 12,
    }  # fmt: skip
    (won,) = keyed(events, "bid_won")
    assert won == {
        "player": 1, "value": 13, "field": 18, "reason": "nobody_higher",
        "returned": [{"player": 0, "value": 12, "field": 17}],
    }  # fmt: skip
    # (b) no free field next to the bid: won at once, and the token on it collected.
    state = new_state(players=4, first=1, tokens={8: "chic"}, avoid=[7, 9])
    put_built(state, 0, 7, 4)
    put_built(state, 2, 9, 6)
    events = play_all(state, "1@8")
    assert [e.key for e in events] == [
        "bid_placed", "bid_won", "token_collected", "round_ended", "round_started",
    ]  # fmt: skip
    assert events[1].params == {
        "player": 1, "value": 1, "field": 8, "reason": "no_free_neighbour", "returned": [],
    }  # fmt: skip
    assert events[2].params == {"player": 1, "token": "chic", "field": 8}


def test_bid_01_events_follow_the_rulebook_round() -> None:
    ex = example("BID-01")
    state = new_state(
        players=4, first=0, tokens={3: "chic", 0: "metro"}, avoid=[9, 4, 22, 5],
        area=["statues", "lakes", "bridges", "outskirts"],
    )  # fmt: skip
    put_built(state, 3, 5, 2)
    texts = [
        "pass" if a["action"] == "pass" else f"{a['value']}@{a['field']}" for a in ex["actions"]
    ]
    events = play_all(state, *texts)
    (won,) = keyed(events, "bid_won")
    assert won == {
        "player": 2, "value": 11, "field": 22, "reason": "all_passed",
        "returned": [
            {"player": 0, "value": 3, "field": 9},
            {"player": 1, "value": 7, "field": 4},
            {"player": 2, "value": 9, "field": 3},
            {"player": 3, "value": 10, "field": 0},
        ],
    }  # fmt: skip
    # Field 22 holds no token; the chic and metro tokens stay where the bids were returned.
    assert keyed(events, "token_collected") == [] and keyed(events, "card_changed_hands") == []


def test_token_and_card_events_follow_the_metro_card() -> None:
    metro_fields = [0, 2, 4, 6, 12]
    state = new_state(
        players=2,
        unused=["south", "west"],
        first=0,
        tokens=dict.fromkeys(metro_fields, "metro"),
        avoid=[1, 3, 5],
    )
    a, b = 0, 1
    holder: int | None = None
    for step, field in zip(example("CARD-01")["sequence"], metro_fields, strict=True):
        who = a if step["player"] == "A" else b
        events = win_round(state, who, field)
        assert keyed(events, "token_collected") == [
            {"player": who, "token": "metro", "field": field}
        ]
        now = a if step["metro_card"] == "A" else b
        changes = keyed(events, "card_changed_hands")
        if now == holder:
            assert changes == []  # a tie keeps the card where it is
        else:
            assert changes == [{"card": "metro", "player": now, "from": holder}]
        holder = now
        order = [e.key for e in events]
        assert order.index("bid_won") < order.index("token_collected") < order.index("round_ended")


def test_archaeology_card_event_goes_to_the_latest_taker() -> None:
    state = new_state(
        players=2,
        unused=["south", "west"],
        first=0,
        tokens=dict.fromkeys([0, 2, 4], "archaeology"),
        avoid=[1, 3, 5],
    )
    changes = [
        keyed(win_round(state, p, f), "card_changed_hands") for p, f in [(0, 0), (0, 2), (1, 4)]
    ]
    assert changes == [
        [{"card": "archaeology", "player": 0, "from": None}],
        [],
        [{"card": "archaeology", "player": 1, "from": 0}],
    ]


def test_game_ended_reveals_every_card_to_everybody() -> None:
    state = new_state(
        "expert", 2, unused=["south", "west"], first=0, avoid=[0],
        area=["chains", "lakes"], colours=["red", "gray"],
    )  # fmt: skip
    fields = [15, 16, 17, 18, 19, 20, 22, 23, 24, 25, 26, 27]
    for f, v in zip(fields, [v for v in FULL if v != 7], strict=True):
        put_built(state, 0, f, v)
    events = play_all(state, "7@0", "pass")
    assert [e.key for e in events][-3:] == ["bid_won", "round_ended", "game_ended"]
    ended = events[-1]
    result = state.result()
    assert ended.to is None and ended.params == {
        "scores": list(result.scores),
        "ranking": [list(g) for g in result.ranking],
        "cards": [
            {"player": 0, "area_card": "chains", "neighbourhood_card": "red"},
            {"player": 1, "area_card": "lakes", "neighbourhood_card": "gray"},
        ],
    }
    assert "round_started" not in [e.key for e in events]
    assert all(ended.visible_to(seat) for seat in (None, 0, 1))


def test_an_illegal_play_raises_and_tells_nothing() -> None:
    state = new_state(players=3, unused=["west"], first=2)
    before = snapshot(state)
    for move in (PASS, bid(13, 47), None):  # opening pass, unused district, no move at all
        with pytest.raises(IllegalMove):
            state.play(move)
        assert snapshot(state) == before
