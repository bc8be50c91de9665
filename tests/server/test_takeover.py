"""Nobody stalls a table: clocks run out, people leave or stay away, and a bot of the
table's level plays on until the person takes the seat back with their link. Time is the
hub's ``now()``, set by each test: nothing here sleeps or depends on how fast it runs."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from polis.server.store import clock_rows
from waiting import eventually

from .conftest import make_app

PEOPLE = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]
START = 1_800_000_000.0


class Wall:
    """The hub's wall clock, moved on by the test."""

    def __init__(self, t: float = START) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@contextlib.contextmanager
def server(db_url: str, wall: Wall) -> Iterator[TestClient]:
    app = make_app(db_url)
    app.state.hub.now = wall
    with TestClient(app) as client:
        yield client


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Path, Path]:
    """Bots that think until the test says so: (release, thinking) files of
    :class:`~tests.server.agents.GateAgent`."""
    from polis.bots import Budget
    from polis.server.bots import driver as bot_driver

    from .agents import GateAgent

    release, thinking = tmp_path / "release", tmp_path / "thinking"
    monkeypatch.setattr(
        bot_driver,
        "make_agent",
        lambda spec, seed: (GateAgent(thinking, release), Budget(iterations=1)),
    )
    return release, thinking


def create(client: TestClient, **rules: Any) -> dict[str, Any]:
    made = client.post(
        "/api/games",
        json={"game": "counting", "mode": "basic", "seats": PEOPLE, "seed": 5, "hot_seat": True}
        | rules,
    )
    assert made.status_code == 200, made.text
    data: dict[str, Any] = made.json()
    data["first"] = client.get(f"/api/games/{data['id']}").json()["current_player"]
    return data


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    assert ws.receive_json()["type"] == "welcome"
    return next_of(ws, "state")


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg


def until(ws: Any, check: Any) -> dict[str, Any]:
    while True:
        state = next_of(ws, "state")
        if check(state):
            return state


def check(client: TestClient, game_id: str) -> bool:
    """Run the room's deadline check now (what its timer does when it fires)."""
    hub = client.app.state.hub  # type: ignore[attr-defined]

    async def run() -> bool:
        room = await hub.room(game_id)
        done: bool = await room.watch.check()
        return done

    result: bool = client.portal.call(run)  # type: ignore[union-attr]
    return result


def left(state: dict[str, Any], seat: int, now: float) -> float:
    """Seconds left on ``seat``'s clock at ``now``, as a client works it out."""
    clock = state["clock"]
    bank: float = clock["banks"][seat]
    return bank - (now - clock["started"]) if clock["running"] == seat else bank


REALTIME = {"clock": {"kind": "realtime", "bank": 60, "increment": 5}, "stand_in": "easy"}


def test_a_realtime_bank_runs_down_and_the_increment_is_added(db_url: str) -> None:
    wall = Wall()
    with server(db_url, wall) as client:
        data = create(client, **REALTIME)
        first = data["first"]
        with client.websocket_connect(f"/ws/{data['id']}") as ws:
            state = hello(ws, data["seats"][first]["token"])
            assert state["clock"]["running"] == first and state["clock"]["kind"] == "realtime"
            assert left(state, first, wall()) == 60.0
            wall.advance(20)
            ws.send_json({"type": "move", "move": "1", "position": 0})
            after = until(ws, lambda s: s["position"] == 1)
        clock = after["clock"]
        assert clock["banks"][first] == 45.0  # 60 - 20 + 5
        assert clock["running"] == 1 - first and clock["started"] == wall()
        assert after["authors"] == ["person"]
        assert check(client, data["id"]) is False  # the other seat's minute has not run out


def test_a_realtime_clock_that_runs_out_hands_the_seat_to_a_bot(db_url: str) -> None:
    wall = Wall()
    with server(db_url, wall) as client:
        data = create(client, **REALTIME)
        first, gid = data["first"], data["id"]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            hello(ws, data["seats"][first]["token"])
            wall.advance(60.5)
            ws.send_json({"type": "move", "move": "2", "position": 0})
            assert next_of(ws, "error")["code"] == "time_out"  # too late: refused
            check(client, gid)
            state = until(ws, lambda s: s["position"] == 1)
        seat = state["seats"][first]
        assert (seat["stand_in"], seat["stand_in_why"]) == ("easy", "time")
        assert state["authors"] == ["bot:easy"]
        assert state["clock"]["banks"][first] == 0.0  # the bot is not charged
        assert state["clock"]["running"] == 1 - first


def test_a_turn_based_clock_runs_out_after_its_day(db_url: str) -> None:
    wall = Wall()
    day = 86400
    rules = {"clock": {"kind": "turn", "per_move": day, "max_bank": 2 * day}, "stand_in": "hard"}
    with server(db_url, wall) as client:
        data = create(client, **rules)
        first, gid = data["first"], data["id"]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            state = hello(ws, data["seats"][first]["token"])
            assert state["clock"]["cap"] == 2 * day and state["clock"]["kind"] == "turn"
            wall.advance(3600)
            ws.send_json({"type": "move", "move": "1", "position": 0})
            state = until(ws, lambda s: s["position"] == 1)
            assert state["clock"]["banks"][first] == 2 * day - 3600  # a day more, capped
            wall.advance(day - 1)
            assert check(client, gid) is False  # a second to go
            wall.advance(1)
            assert check(client, gid) is True
            state = until(ws, lambda s: s["position"] == 2)
        assert state["seats"][1 - first]["stand_in"] == "hard"
        assert state["authors"] == ["person", "bot:hard"]


def test_away_past_the_limit_a_bot_plays_and_the_link_takes_the_seat_back(db_url: str) -> None:
    wall = Wall()
    with server(db_url, wall) as client:
        data = create(client, away_limit=30, stand_in="easy")
        first, gid = data["first"], data["id"]
        away = data["seats"][first]["token"]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            state = hello(ws, data["seats"][1 - first]["token"])
            assert state["clock"] is None and state["rules"]["away_limit"] == 30
            wall.advance(29)
            assert check(client, gid) is False
            wall.advance(1)
            assert check(client, gid) is True
            state = until(ws, lambda s: s["position"] == 1)
            assert state["seats"][first]["stand_in_why"] == "away"
            ws.send_json({"type": "move", "move": "1", "position": 1})
            state = until(ws, lambda s: s["position"] == 3)  # the bot moved again
            assert state["authors"] == ["bot:easy", "person", "bot:easy"]
            with client.websocket_connect(f"/ws/{gid}") as back:
                mine = hello(back, away)  # the seat's link: the person is back
                assert mine["seats"][first]["stand_in"] is None
                ws.send_json({"type": "move", "move": "1", "position": 3})
                mine = until(back, lambda s: s["position"] == 4)
                assert mine["current_player"] == first and mine["legal"] == ["1", "2", "3"]
                back.send_json({"type": "move", "move": "1", "position": 4})
                mine = until(back, lambda s: s["position"] == 5)
            assert mine["authors"][4] == "person"


def test_a_person_who_resigns_is_replaced_and_can_come_back(db_url: str) -> None:
    wall = Wall()
    with server(db_url, wall) as client:
        data = create(client, stand_in="easy")
        first, gid = data["first"], data["id"]
        token = data["seats"][first]["token"]
        bad = client.post(f"/api/games/{gid}/resign", json={"token": "not-a-token"})
        assert bad.status_code == 403
        with client.websocket_connect(f"/ws/{gid}") as ws:
            hello(ws, data["seats"][1 - first]["token"])
            left_seat = client.post(f"/api/games/{gid}/resign", json={"token": token}).json()
            assert left_seat == {"seat": first, "stand_in": "easy", "why": "left"}
            state = until(ws, lambda s: s["position"] == 1)
            assert state["authors"] == ["bot:easy"]
            # connecting with the seat's token takes it back
            with client.websocket_connect(f"/ws/{gid}") as again:
                state = hello(again, token)
                assert state["seats"][first]["stand_in"] is None
        # the takeover and the hand-back are stored facts
        stored = clock_rows.load(client.app.state.hub.store.engine, gid)  # type: ignore[attr-defined]
        assert stored.stand_ins == {}


def strangers(client: TestClient, **rules: Any) -> dict[str, Any]:
    """A table of two people on their own devices, dealt secretly: hints off."""
    made = client.post(
        "/api/games", json={"game": "counting", "mode": "basic", "seats": PEOPLE} | rules
    )
    assert made.status_code == 200, made.text
    data: dict[str, Any] = made.json()
    data["first"] = client.get(f"/api/games/{data['id']}").json()["current_player"]
    return data


def test_leaving_and_coming_back_buys_no_bot_move_where_another_person_plays(
    db_url: str, gate: tuple[Path, Path]
) -> None:
    """The audit's loop: at a two-person table with hints off, the player to move leaves,
    the stand-in moves for them, and their link hands the seat straight back. Here the seat
    stays with its stand-in: coming back, even while the bot still thinks, gets the person
    neither the seat nor the bot's move."""
    release, thinking = gate
    wall = Wall()
    with server(db_url, wall) as client:
        data = strangers(client, stand_in="hard")
        first, gid = data["first"], data["id"]
        token, other = data["seats"][first]["token"], data["seats"][1 - first]["token"]
        try:
            with client.websocket_connect(f"/ws/{gid}") as ws:
                state = hello(ws, other)
                assert state["hints"] is False and state["rules"]["leave_final"] is True
                resigned = client.post(f"/api/games/{gid}/resign", json={"token": token})
                assert resigned.status_code == 200
                # the stand-in is thinking for the seat
                eventually(thinking.exists, "the bot never started thinking", timeout=60)
                with client.websocket_connect(f"/ws/{gid}") as back:
                    mine = hello(back, token)  # the loop's second half: the link again
                    assert mine["seats"][first]["stand_in"] == "hard"
                    assert mine["seats"][first]["stand_in_why"] == "left"
                    assert mine["legal"] == [] and mine["position"] == 0
                    back.send_json({"type": "move", "move": "3", "position": 0})
                    refused = next_of(back, "error")
                    assert refused["code"] == "stood_in" and "until the end" in refused["message"]
                    release.touch()
                    mine = until(back, lambda s: s["position"] == 1)  # the bot's move stands
                    ws.send_json({"type": "move", "move": "1", "position": 1})
                    mine = until(back, lambda s: s["position"] == 3)  # and it plays on
        finally:
            release.touch()
        assert mine["authors"] == ["bot:hard", "person", "bot:hard"]
        summary = client.get(f"/api/games/{gid}").json()
        assert summary["seats"][first]["stand_in"] == "hard"


def test_a_seat_lost_to_being_away_comes_back_at_once_even_where_leaving_is_final(
    db_url: str,
) -> None:
    wall = Wall()
    with server(db_url, wall) as client:
        data = strangers(client, away_limit=30, stand_in="easy")
        first, gid = data["first"], data["id"]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            state = hello(ws, data["seats"][1 - first]["token"])
            assert state["rules"]["leave_final"] is True
            wall.advance(30)
            assert check(client, gid) is True
            until(ws, lambda s: s["seats"][first]["stand_in_why"] == "away")
            with client.websocket_connect(f"/ws/{gid}") as back:
                mine = hello(back, data["seats"][first]["token"])
                assert mine["seats"][first]["stand_in"] is None


def test_a_clock_continues_across_a_restart_with_only_the_downtime_gone(db_url: str) -> None:
    wall = Wall()
    rules = {"clock": {"kind": "realtime", "bank": 600, "increment": 0}}
    with server(db_url, wall) as client:
        data = create(client, **rules)
        first, gid = data["first"], data["id"]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            hello(ws, data["seats"][first]["token"])
            wall.advance(100)
            ws.send_json({"type": "move", "move": "1", "position": 0})
            until(ws, lambda s: s["position"] == 1)
        wall.advance(50)  # the second player thinks 50 s, then the server stops
    wall.advance(250)  # 250 s of downtime
    with server(db_url, wall) as client:
        with client.websocket_connect(f"/ws/{gid}") as ws:
            state = hello(ws, data["seats"][1 - first]["token"])
            assert left(state, 1 - first, wall()) == 600 - 50 - 250
            assert left(state, first, wall()) == 500
            wall.advance(10)
            ws.send_json({"type": "move", "move": "1", "position": 1})
            state = until(ws, lambda s: s["position"] == 2)
        assert state["clock"]["banks"] == [500.0 if seat == first else 290.0 for seat in range(2)]


def test_two_processes_racing_to_take_a_seat_over_store_one_takeover(db_url: str) -> None:
    wall = Wall()
    with server(db_url, wall) as one, server(db_url, wall) as two:
        data = create(one, **REALTIME)
        gid = data["id"]
        for client in (one, two):
            client.get(f"/api/games/{gid}")  # both processes hold the room
        wall.advance(61)
        results = [check(one, gid), check(two, gid)]
        assert sorted(results) == [False, True]
        engine = one.app.state.hub.store.engine  # type: ignore[attr-defined]
        assert list(clock_rows.load(engine, gid).stand_ins) == [data["first"]]
        # the process that lost read the stored takeover back
        summary = two.get(f"/api/games/{gid}").json()
        assert summary["seats"][data["first"]]["stand_in"] == "easy"


def test_a_takeover_decided_at_an_old_position_is_not_stored(db_url: str) -> None:
    wall = Wall()
    with server(db_url, wall) as client:
        data = create(client)
        engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
        kwargs: dict[str, Any] = {"level": "easy", "why": "time", "since": 1.0, "clock": None}
        gid = data["id"]
        assert not clock_rows.take_over(engine, gid, 0, position=3, bot_turn=None, **kwargs)
        assert clock_rows.take_over(engine, gid, 0, position=0, bot_turn=None, **kwargs)
        assert not clock_rows.take_over(engine, gid, 0, position=0, bot_turn=None, **kwargs)
        assert not clock_rows.hand_back(engine, gid, 1, position=0, bot_turn=None, clock=None)
        assert clock_rows.hand_back(engine, gid, 0, position=0, bot_turn=None, clock=None)


def test_the_record_says_who_made_each_move(db_url: str) -> None:
    wall = Wall()
    with server(db_url, wall) as client:
        data = create(client, stand_in="easy")
        first, gid = data["first"], data["id"]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            state = hello(ws, data["seats"][first]["token"])
            ws.send_json({"type": "move", "move": "1", "position": 0})
            until(ws, lambda s: s["position"] == 1)
            client.post(
                f"/api/games/{gid}/resign", json={"token": data["seats"][1 - first]["token"]}
            )
            while not state["finished"]:
                state = next_of(ws, "state")
                if state["current_player"] == first and not state["finished"]:
                    ws.send_json({"type": "move", "move": "1", "position": state["position"]})
        record = client.get(f"/api/games/{gid}/record").json()
        authors = record["authors"]
        assert len(authors) == len(record["moves"]) >= 6
        assert authors[0::2] == ["person"] * len(authors[0::2])
        assert authors[1::2] == ["bot:easy"] * len(authors[1::2])
        replay = client.get(f"/api/games/{gid}/replay/2").json()
        assert replay["authors"] == authors[:2]
        # the record still replays (the key is optional and ignored by readers)
        from toygame import GAME

        assert GAME.from_record(record).is_terminal()


@pytest.mark.parametrize(
    "rules",
    [
        {"clock": {"kind": "realtime"}},
        {"clock": {"kind": "turn", "bank": 5}},
        {"clock": {"kind": "realtime", "bank": -1}},
        {"stand_in": "godlike"},
        {"away_limit": 0.1},
        {"clock": {"kind": "realtime", "bank": 60}, "away_limit": 60},
    ],
)
def test_bad_clocks_and_rules_are_refused(client: TestClient, rules: dict[str, Any]) -> None:
    made = client.post(
        "/api/games", json={"game": "counting", "mode": "basic", "seats": PEOPLE} | rules
    )
    assert made.status_code in (400, 422), made.text


def test_a_clock_that_ran_out_while_nobody_held_the_table_is_acted_on(db_url: str) -> None:
    """The upkeep loads a game whose clock ran out while no process had it in memory (after a
    restart, say), and a bot takes over at once."""
    from polis.server.live.upkeep import load_overdue

    wall = Wall()
    with server(db_url, wall) as client:
        data = create(client, **REALTIME)
        first, gid = data["first"], data["id"]
    wall.advance(3600)  # the server was down for an hour; nobody came back
    with server(db_url, wall) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        # loaded by this call, or by the upkeep's own first round if it got there first
        client.portal.call(load_overdue, hub)  # type: ignore[union-attr]
        assert gid in hub.rooms
        with client.websocket_connect(f"/ws/{gid}") as ws:
            state = hello(ws, None)
            if state["position"] < 1:
                state = until(ws, lambda s: s["position"] == 1)  # the bot played the turn
        assert state["seats"][first]["stand_in_why"] == "time"
        assert state["authors"] == ["bot:easy"]
        assert client.portal.call(load_overdue, hub) == 0  # type: ignore[union-attr]


def test_a_bot_still_thinking_when_its_person_comes_back_drops_its_move(
    db_url: str, gate: tuple[Path, Path]
) -> None:
    """The bot stops at the turn boundary: a person back while it thinks plays the turn."""
    release, thinking = gate
    wall = Wall()
    with server(db_url, wall) as client:
        data = create(client, stand_in="easy")
        first, gid = data["first"], data["id"]
        token = data["seats"][first]["token"]
        try:
            with client.websocket_connect(f"/ws/{gid}") as before:
                hello(before, token)  # a page left open when the person resigned
                resigned = client.post(f"/api/games/{gid}/resign", json={"token": token})
                assert resigned.status_code == 200
                # waits for the bot to start, whatever the speed
                eventually(thinking.exists, "the bot never started thinking", timeout=60)
                before.send_json({"type": "move", "move": "1", "position": 0})
                assert next_of(before, "error")["code"] == "stood_in"
            with client.websocket_connect(f"/ws/{gid}") as ws:
                state = hello(ws, token)  # back while the bot thinks
                assert state["seats"][first]["stand_in"] is None and state["legal"]
                release.touch()
                ws.send_json({"type": "move", "move": "3", "position": 0})
                state = until(ws, lambda s: s["position"] == 1)
        finally:
            release.touch()
        assert state["authors"] == ["person"] and state["view"]["moves"] == ["3"]


def test_another_process_told_of_a_takeover_reads_it_back(db_url: str) -> None:
    """Process one stores a takeover; process two, holding the same room, hears of it on the
    bus and shows it (its seats and clock read back from the store)."""
    wall = Wall()
    with server(db_url, wall) as one, server(db_url, wall) as two:
        data = create(one, **REALTIME)
        first, gid = data["first"], data["id"]
        with two.websocket_connect(f"/ws/{gid}") as ws:
            state = hello(ws, None)
            assert state["seats"][first]["stand_in"] is None
            wall.advance(10)
            token = data["seats"][first]["token"]
            assert one.post(f"/api/games/{gid}/resign", json={"token": token}).status_code == 200
            hub = two.app.state.hub  # type: ignore[attr-defined]
            told = {"t": "change", "k": "stand_in", "s": first, "g": gid, "o": "one"}
            two.portal.call(hub.on_bus, told)  # type: ignore[union-attr]
            state = until(ws, lambda s: s["seats"][first]["stand_in"] == "easy")
        # the 10 s the person used, read back (a bot's turns never cost the seat time)
        assert state["clock"]["banks"][first] == 50.0
        assert state["clock"]["running"] in (None, 1 - first)


def test_an_open_tables_clock_starts_when_its_last_seat_is_taken(db_url: str) -> None:
    wall = Wall()
    with server(db_url, wall) as client:
        seats = [{"name": "Ada", "kind": "human"}, {"kind": "open"}]
        made = client.post(
            "/api/games", json={"game": "counting", "mode": "basic", "seats": seats} | REALTIME
        )
        assert made.status_code == 200, made.text
        gid = made.json()["id"]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            state = hello(ws, None)
            assert state["clock"]["running"] is None  # nobody's time runs while the table waits
            wall.advance(500)
            taken = client.post(f"/api/games/{gid}/seats", json={"name": "Lin"})
            assert taken.status_code == 200, taken.text
            state = until(ws, lambda s: s["clock"]["running"] is not None)
        assert state["clock"]["started"] == wall() and state["clock"]["banks"] == [60.0, 60.0]
        assert check(client, gid) is False
        wall.advance(60)
        assert check(client, gid) is True  # the minute counts from when the game began


def test_a_move_another_process_stored_carries_its_author_and_clock(db_url: str) -> None:
    wall = Wall()
    with server(db_url, wall) as one, server(db_url, wall) as two:
        data = create(one, **REALTIME)
        first, gid = data["first"], data["id"]
        with two.websocket_connect(f"/ws/{gid}") as watcher:
            hello(watcher, None)
            with one.websocket_connect(f"/ws/{gid}") as ws:
                hello(ws, data["seats"][first]["token"])
                wall.advance(20)
                ws.send_json({"type": "move", "move": "1", "position": 0})
                until(ws, lambda s: s["position"] == 1)
            hub = two.app.state.hub  # type: ignore[attr-defined]
            told = {"t": "change", "k": "move", "g": gid, "i": 0, "m": "1", "a": "person"}
            told["o"] = "one"
            two.portal.call(hub.on_bus, told)  # type: ignore[union-attr]
            state = until(watcher, lambda s: s["position"] == 1 and s["clock"]["started"] > START)
        assert state["authors"] == ["person"]
        assert state["clock"]["banks"][first] == 45.0 and state["clock"]["running"] == 1 - first


def test_a_records_authors_follow_the_moves_still_standing() -> None:
    from polis.server.live.history import TAKE_BACK
    from polis.server.table.standins import standing_authors

    entries = ["1", "2", TAKE_BACK, "3", "1"]
    authors = ["person", "bot:easy", "person", "person", None]
    assert standing_authors(entries, authors) == ["person", "person", None]
    assert standing_authors(["1", "2"], ["person"]) == ["person", None]  # older moves: unknown
