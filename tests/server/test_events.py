"""Events (tournaments): the pairing and standings rules on their own, then over the API:
making, listing, joining and leaving (people by their session, bots by their API token), a
Swiss event of five over three rounds with its byes, a no-show replaced and withdrawn, the
round advance made once by two server processes on one store, a rated round robin.

The events' own loop does not run here: each test moves the events on with :func:`tick`, so
what happens when is the test's to say. People play their event
tables over the WebSocket with a seat key from "My games"; bot accounts through the bot API.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter
from sqlalchemy import func, select

from polis.core.registry import games
from polis.server import create_app
from polis.server.accounts import throttle
from polis.server.config import ServerConfig, parse_limits
from polis.server.events import pairing, runner
from polis.server.events.pairing import Record
from polis.server.events.standings import Entrant, Played, place_points, records, standings
from polis.server.store import events as event_rows
from polis.server.wire.events import EventJSON, EventListJSON
from waiting import eventually

from .browsers import Browser
from .seat_client import Seat, seated

TOY = {"game": "counting", "mode": "basic"}
START = 1_800_000_000.0


# -- the rules on their own -----------------------------------------------------------------------
def test_table_sizes_are_even_where_the_mode_allows_else_full_tables_and_byes() -> None:
    assert pairing.table_sizes(6, 4, {2, 3, 4}) == ([3, 3], 0)
    assert pairing.table_sizes(5, 2, {2}) == ([2, 2], 1)
    assert pairing.table_sizes(7, 3, {3}) == ([3, 3], 1)
    assert pairing.table_sizes(8, 4, {2, 3, 4}) == ([4, 4], 0)
    assert pairing.table_sizes(9, 4, {4}) == ([4, 4], 1)
    assert pairing.table_sizes(1, 2, {2}) == ([], 1)


def play_rounds(ids: list[int], rounds: int, players: int, seed: int = 7) -> list[Played]:
    """Swiss rounds of ``ids`` where the lower id always wins (a fixed, uneven field)."""
    results: list[Played] = []
    entrants = [Entrant(i, f"p{i}", False) for i in ids]
    for round_no in range(1, rounds + 1):
        done = pairing.swiss(records(entrants, results), players, {players}, seed, round_no)
        for board, table in enumerate(done.tables):
            ranked = sorted(table)
            points = place_points([ranked.index(e) + 1 for e in table])
            for seat, e in enumerate(table):
                results.append(
                    Played(round_no, e, board, seat, ranked.index(e) + 1, points[seat], 10 - e)
                )
        results += [Played(round_no, e, None, points=1.0) for e in done.byes]
    return results


def test_swiss_gives_each_bye_once_and_pairs_nobody_twice_while_it_can() -> None:
    results = play_rounds([1, 2, 3, 4, 5], 5, 2)
    byes = Counter(r.account_id for r in results if r.table is None)
    assert sorted(byes.values()) == [1, 1, 1, 1, 1]  # five rounds, five entrants, one bye each
    for seed in range(20):
        results = play_rounds([1, 2, 3, 4, 5, 6, 7], 3, 2, seed)
        meetings = Counter(
            frozenset(r.account_id for r in results if (r.round, r.table) == key)
            for key in {(r.round, r.table) for r in results if r.table is not None}
        )
        assert max(meetings.values()) == 1, seed
        byes = Counter(r.account_id for r in results if r.table is None)
        assert set(byes.values()) == {1} and len(byes) == 3


def test_swiss_pairs_the_leaders_together() -> None:
    results = play_rounds(list(range(1, 9)), 2, 2)
    round_two = {
        frozenset(r.account_id for r in results if (r.round, r.table) == (2, b)) for b in range(4)
    }
    winners = {r.account_id for r in results if r.round == 1 and r.place == 1}
    assert any(pair <= winners for pair in round_two)  # a winner meets a winner


def test_tables_of_four_meet_new_faces_and_the_first_seat_goes_round() -> None:
    results = play_rounds(list(range(1, 9)), 2, 4)
    tables = [
        [r.account_id for r in results if (r.round, r.table) == (round_no, b)]
        for round_no in (1, 2)
        for b in range(2)
    ]
    assert all(len(t) == 4 for t in tables)
    first, second = tables[:2], tables[2:]
    for a, b in itertools.product(first, second):
        assert len(set(a) & set(b)) <= 2  # no table of round 2 repeats three of round 1
    firsts = [r.account_id for r in results if r.seat == 0]
    assert len(set(firsts)) == 4  # four different entrants had the first seat


def test_round_robin_meets_every_pair_once_at_tables_of_two() -> None:
    for n in (4, 5):
        rounds = pairing.round_robin(list(range(n)), 2, {2}, 1)
        assert len(rounds) == (n - 1 if n % 2 == 0 else n)
        pairs = [frozenset(t) for r in rounds for t in r if len(t) == 2]
        assert sorted(map(sorted, pairs)) == sorted(map(sorted, set(pairs)))
        assert set(pairs) == {frozenset(p) for p in itertools.combinations(range(n), 2)}
        for r in rounds:
            assert sorted(e for t in r for e in t) == list(range(n))  # each once a round


def test_round_robin_at_tables_of_three_meets_every_pair() -> None:
    rounds = pairing.round_robin(list(range(6)), 3, {2, 3}, 1)
    met = {frozenset(p) for r in rounds for t in r for p in itertools.combinations(t, 2)}
    assert met == {frozenset(p) for p in itertools.combinations(range(6), 2)}
    assert len(rounds) <= 5


def test_points_by_place_share_ties() -> None:
    assert place_points([1, 2]) == [1.0, 0.0]
    assert place_points([1, 1]) == [0.5, 0.5]
    assert place_points([2, 1, 3]) == [0.5, 1.0, 0.0]
    assert place_points([1, 2, 2, 4]) == pytest.approx([1.0, 0.5, 0.5, 0.0])


def test_standings_break_ties_by_buchholz_then_score() -> None:
    people = [Entrant(i, n, False) for i, n in enumerate("ABCD", 1)]
    # round 1: A beats B, C beats D; round 2: A beats C, D beats B (B and D 1 point... no:
    # B 0 + 0, D 0 + 1); C and D have 1 point, C's opponents (D 1, A 2) beat D's (C 1, B 0)
    results = [
        Played(1, 1, 0, 0, 1, 1.0, 5),
        Played(1, 2, 0, 1, 2, 0.0, 3),
        Played(1, 3, 1, 0, 1, 1.0, 4),
        Played(1, 4, 1, 1, 2, 0.0, 9),
        Played(2, 1, 0, 0, 1, 1.0, 5),
        Played(2, 3, 0, 1, 2, 0.0, 4),
        Played(2, 4, 1, 0, 1, 1.0, 4),
        Played(2, 2, 1, 1, 2, 0.0, 3),
    ]
    lines = standings(people, results)
    assert [(line.entrant.name, line.points) for line in lines] == [
        ("A", 2.0),
        ("C", 1.0),
        ("D", 1.0),
        ("B", 0.0),
    ]
    assert lines[1].buchholz > lines[2].buchholz
    # the same points and Buchholz: the game score decides, then they share a rank
    even = [Played(1, 1, 0, 0, 1, 0.5, 5), Played(1, 2, 0, 1, 1, 0.5, 6)]
    assert [line.entrant.name for line in standings(people[:2], even)] == ["B", "A"]
    same = [Played(1, 1, 0, 0, 1, 0.5, 5), Played(1, 2, 0, 1, 1, 0.5, 5)]
    assert [line.rank for line in standings(people[:2], same)] == [1, 1]


def test_seat_order_gives_the_first_seat_to_whoever_had_it_least() -> None:
    import random

    recs = {1: Record(1, seats=(2, 0)), 2: Record(2, seats=(0, 2))}
    assert pairing.seat_order([1, 2], recs, random.Random(0)) == (2, 1)


def together(done: pairing.Pairing, a: int, b: int) -> bool:
    return any(a in table and b in table for table in done.tables)


def test_swiss_keeps_a_blocked_pair_apart_at_the_cost_of_a_repeated_meeting() -> None:
    # rounds 1 and 2 were (1, 3) (2, 4) and (1, 4) (2, 3): the one pairing of round 3 where
    # nobody meets anyone again is (1, 2) (3, 4)
    met = {1: {3: 1, 4: 1}, 2: {3: 1, 4: 1}, 3: {1: 1, 2: 1}, 4: {1: 1, 2: 1}}
    recs = [Record(i, points=1.0, met=met[i], seats=(1, 1)) for i in (1, 2, 3, 4)]
    for seed in range(10):
        free = pairing.swiss(recs, 2, {2}, seed, 3)
        assert sorted(map(sorted, free.tables)) == [[1, 2], [3, 4]]
        kept = pairing.swiss(recs, 2, {2}, seed, 3, blocks={frozenset((1, 2))})
        assert not together(kept, 1, 2) and kept.byes == []
        assert sorted(len(t) for t in kept.tables) == [2, 2]
        # a repeated meeting instead (1 meets 3 or 4 again)
        assert any(met[t[0]].get(t[1]) for t in kept.tables)
    # the other way round (2 blocks 1) is the same pair
    assert not together(pairing.swiss(recs, 2, {2}, 0, 3, blocks=[frozenset((2, 1))]), 1, 2)


def test_swiss_keeps_blocked_pairs_apart_in_a_first_round_and_through_the_byes() -> None:
    fresh = [Record(i) for i in range(1, 9)]
    blocks = {frozenset((1, 2)), frozenset((1, 3)), frozenset((5, 6))}
    for seed in range(30):
        for players in (2, 4):
            done = pairing.swiss(fresh, players, {players}, seed, 1, blocks)
            assert all(not together(done, *sorted(pair)) for pair in blocks), (seed, players)
            assert sorted(e for t in done.tables for e in t) == list(range(1, 9))
    # three entrants, one table of two: the bye goes to one of the blocked pair
    three = [Record(i) for i in (1, 2, 3)]
    for seed in range(20):
        done = pairing.swiss(three, 2, {2}, seed, 1, {frozenset((1, 2))})
        assert len(done.tables) == 1 and not together(done, 1, 2)
        assert done.byes in ([1], [2])


def test_swiss_seats_a_blocked_pair_when_no_pairing_keeps_it_apart() -> None:
    """The module doc's rule: the round is still paired, with the fewest blocked pairs."""
    two = [Record(1), Record(2)]
    assert pairing.swiss(two, 2, {2}, 0, 1, {frozenset((1, 2))}).tables in ([(1, 2)], [(2, 1)])
    # four at tables of two where 1 blocks everyone: one blocked pair must sit together, and
    # only one does (3 and 4, 2 and 4 ... meet freely)
    four = [Record(i) for i in (1, 2, 3, 4)]
    blocks = {frozenset((1, b)) for b in (2, 3, 4)}
    for seed in range(10):
        done = pairing.swiss(four, 2, {2}, seed, 1, blocks)
        assert len(done.tables) == 2 and done.byes == []
        assert sum(frozenset(t) in blocks for t in done.tables) == 1


def test_a_round_robin_never_seats_a_blocked_pair_and_gives_them_byes_instead() -> None:
    ids = [1, 2, 3, 4]
    blocks = {frozenset((1, 2))}
    schedule = pairing.round_robin(ids, 2, {2}, 5)
    sat_out = 0
    for round_no in range(1, len(schedule) + 1):
        free = pairing.round_robin_round(ids, 2, {2}, 5, round_no, {}, ())
        kept = pairing.round_robin_round(ids, 2, {2}, 5, round_no, {}, (), blocks)
        assert not together(kept, 1, 2)
        if together(free, 1, 2):  # their round: both sit out, the others play
            sat_out += 1
            assert sorted(kept.byes) == [1, 2] and [sorted(t) for t in kept.tables] == [[3, 4]]
        else:
            assert kept == free
    assert sat_out == 1
    # at a table of three (the mode allows two), the later of the pair sits out and the
    # other two play
    kept = pairing.round_robin_round([1, 2, 3], 3, {2, 3}, 5, 1, {}, (), blocks)
    (table,) = kept.tables
    assert len(table) == 2 and 3 in table and len(kept.byes) == 1


# -- over the API -------------------------------------------------------------------------------
class Wall:
    """The hub's wall clock, moved on by the test."""

    def __init__(self, t: float = START) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


class Bot:
    """A bot account and its API token."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.owner = Browser(client, name)
        self.name = name
        assert self.owner.post("/api/account/bot").status_code == 200
        r = self.owner.post("/api/account/tokens", {"label": "events"})
        assert r.status_code == 200, r.text
        self.headers = {"Authorization": f"Bearer {r.json()['token']}"}
        self.client = client

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(path, json=body, headers=self.headers)


def make(db_url: str, wall: Wall) -> TestClient:
    config = ServerConfig.from_env(bot_delay=0.0, limits=parse_limits("message_rate=10000/second"))
    app = create_app(db_url, games=games().values(), config=config)
    app.state.hub.now = wall
    return TestClient(app)


@pytest.fixture(autouse=True)
def by_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """The events' loop does not run: the tests tick. (And the test's people all sign up
    from one address.)"""

    async def idle(hub: Any) -> None:
        return None

    monkeypatch.setattr(runner, "run", idle)
    monkeypatch.setattr(throttle, "SIGNUPS_PER_ADDRESS", 100)


@pytest.fixture
def wall() -> Wall:
    return Wall()


@pytest.fixture
def client(db_url: str, wall: Wall) -> Iterator[TestClient]:
    with make(db_url, wall) as c:
        yield c


def hub_of(client: TestClient) -> Any:
    return client.app.state.hub  # type: ignore[attr-defined]


def tick(client: TestClient) -> None:
    client.portal.call(runner.tick, hub_of(client))  # type: ignore[union-attr]


#: The answers' types (:mod:`polis.server.wire.events`): every answer read is checked.
EVENT = TypeAdapter(EventJSON)
LISTING = TypeAdapter(EventListJSON)


def event_of(client: TestClient, event_id: str) -> dict[str, Any]:
    r = client.get(f"/api/events/{event_id}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    EVENT.validate_python(data, strict=True)
    return data


def new_event(person: Browser, **extra: Any) -> dict[str, Any]:
    body = {"name": "Spring open", **TOY, "players": 2, "format": "swiss", "rounds": 3} | extra
    r = person.post("/api/events", body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    EVENT.validate_python(data, strict=True)
    return data


def tables_of(data: dict[str, Any], round_no: int) -> list[dict[str, Any]]:
    return list(data["schedule"][round_no - 1]["tables"])


def play_table(
    client: TestClient,
    game_id: str,
    people: dict[str, Browser],
    bots: dict[str, Bot],
    away: set[str] = frozenset(),  # type: ignore[assignment]
) -> None:
    """Play ``game_id`` to its end: each person there (not ``away``) from a seat key of "My
    games" over the WebSocket, each bot account through the bot API, the first legal move;
    a bot standing in for someone away plays by itself."""
    summary = client.get(f"/api/games/{game_id}").json()
    names = [s["account"] for s in summary["seats"]]
    with ExitStack() as stack:
        seats: dict[int, Seat] = {}
        for seat, name in enumerate(names):
            if name in people and name not in away:
                key = people[name].post(f"/api/account/games/{game_id}/key")
                assert key.status_code == 200, key.text
                assert key.json()["seat"] == seat
                seats[seat] = stack.enter_context(seated(client, game_id, key.json()["token"]))
        watcher = stack.enter_context(seated(client, game_id, None))
        while not watcher.state["finished"]:
            state = watcher.state
            mover = state["current_player"]
            position = state["position"]
            if state["seats"][mover]["stand_in"] is None:
                if mover in seats:
                    seats[mover].at(position)
                    seats[mover].move()
                elif names[mover] in bots:
                    r = bots[names[mover]].post(
                        f"/api/bot/games/{game_id}/move", {"move": 1, "position": position}
                    )
                    assert r.status_code == 200, r.text
            watcher.at(position + 1)


def play_round(
    client: TestClient,
    event_id: str,
    round_no: int,
    people: dict[str, Browser],
    bots: dict[str, Bot] | None = None,
    away: set[str] = frozenset(),  # type: ignore[assignment]
) -> dict[str, Any]:
    """Play every table of the round, then tick until the event moved on; the event."""
    data = event_of(client, event_id)
    assert data["round"] == round_no
    for table in tables_of(data, round_no):
        play_table(client, table["game_id"], people, bots or {}, away)

    def moved() -> dict[str, Any] | None:
        tick(client)
        found = event_of(client, event_id)
        return found if found["round"] > round_no or found["status"] == "finished" else None

    return eventually(moved, f"round {round_no} never ended")


def test_making_listing_and_refusals(client: TestClient) -> None:
    ada = Browser(client, "Ada")
    guest = client.post("/api/events", json={"name": "x", **TOY, "rounds": 2})
    assert guest.status_code == 401
    bad = [
        ({"rounds": None}, "1 to 20 rounds"),
        ({"format": "round_robin", "rounds": 3}, "as many rounds"),
        ({"game": "nosuch"}, "unknown game"),
        ({"players": 5}, None),
        ({"stand_in": "godlike"}, "unknown bot level"),
        ({"starts": "2020-01-01T00:00:00Z"}, "past"),
        ({"starts": "2099-01-01T00:00:00"}, "time zone"),
    ]
    for extra, words in bad:
        body = {"name": "Cup", **TOY, "format": "swiss", "rounds": 3} | extra
        r = ada.post("/api/events", body)
        assert r.status_code in (400, 422), (extra, r.text)
        if words:
            assert words in r.text, (extra, r.text)
    soon = "2027-01-15T08:00:00+00:00"  # after the test's wall clock (2027-01-15 08:00)
    made = new_event(ada, starts=soon, rated=True, clock={"kind": "turn", "per_move": 60})
    assert made["status"] == "open" and made["creator"] == "Ada" and made["rated"] is True
    assert made["starts"] == pytest.approx(START) and made["rules"]["clock"]["per_move"] == 60
    assert made["can_start"] is True and made["joined"] is False
    listed = LISTING.validate_python(client.get("/api/events").json(), strict=True)
    assert [e["id"] for e in listed["upcoming"]] == [made["id"]]
    assert listed["running"] == [] and listed["finished"] == []
    assert client.get("/api/events/nosuchevent").status_code == 404
    assert client.get("/api/meta").json()["tournaments"] is True

    bea = Browser(client, "Bea")
    eid = made["id"]
    assert bea.post(f"/api/events/{eid}/join").status_code == 200
    again = bea.post(f"/api/events/{eid}/join")
    assert again.status_code == 400 and "entered already" in again.text
    assert event_of(client, eid)["entrants"] == 1
    assert bea.get(f"/api/events/{eid}").json()["joined"] is True
    assert bea.post(f"/api/events/{eid}/start").status_code == 403  # not the creator
    too_few = ada.post(f"/api/events/{eid}/start")
    assert too_few.status_code == 400 and "at least 2" in too_few.text
    left = bea.post(f"/api/events/{eid}/leave")
    assert left.json() == {"event_id": eid, "joined": False, "withdrawn": False}
    assert event_of(client, eid)["roster"] == []
    no_csrf = bea.client.post(f"/api/events/{eid}/join")
    assert no_csrf.status_code == 403
    assert client.post(f"/api/events/{eid}/join").status_code == 401  # a guest
    bot = Bot(client, "Robo")
    assert bot.owner.post("/api/events", {"name": "Bots", **TOY, "rounds": 1}).status_code == 403
    assert bot.post(f"/api/events/{eid}/join").status_code == 200
    assert event_of(client, eid)["roster"] == [
        {"name": "Robo", "bot": True, "withdrawn": None, "why": None}
    ]


def test_a_swiss_event_of_five_plays_three_rounds_with_byes_to_its_final_table(
    client: TestClient,
) -> None:
    people = {n: Browser(client, n) for n in ("Ada", "Bea", "Cal", "Dot")}
    bots = {"Robo": Bot(client, "Robo")}
    eid = new_event(people["Ada"], rounds=3)["id"]
    for p in people.values():
        assert p.post(f"/api/events/{eid}/join").status_code == 200
    assert bots["Robo"].post(f"/api/events/{eid}/join").status_code == 200
    started = people["Ada"].post(f"/api/events/{eid}/start")
    assert started.status_code == 200, started.text
    data = started.json()
    assert data["status"] == "running" and data["round"] == 1 and data["rounds"] == 3
    assert people["Ada"].post(f"/api/events/{eid}/start").status_code == 400
    late = Browser(client, "Eve").post(f"/api/events/{eid}/join")
    assert late.status_code == 400 and "started" in late.text

    # the tables are in "My games", bound to the entrants' accounts
    first = tables_of(data, 1)
    assert len(first) == 2 and len(data["schedule"][0]["byes"]) == 1
    seated = {s["name"] for t in first for s in t["seats"]}
    for name, person in people.items():
        mine = person.get("/api/account/games").json()
        ids = {g["id"] for key in ("turn", "playing") for g in mine[key]}
        assert (name in seated) == bool(ids & {t["game_id"] for t in first})
    robo_table = next((t for t in first if "Robo" in {s["name"] for s in t["seats"]}), None)
    if robo_table is not None:  # the bot's table is a table like any other of the bot's
        engine = hub_of(client).store.engine
        from polis.server.store import api_tokens

        bot_id = next(
            r["account_id"] for r in event_rows.entrants(engine, eid) if r["name"] == "Robo"
        )
        live = {g["id"] for g in api_tokens.live_games(engine, bot_id) if not g["waiting"]}
        assert robo_table["game_id"] in live

    for round_no in (1, 2, 3):
        data = play_round(client, eid, round_no, people, bots)
    assert data["status"] == "finished" and data["round"] == 3
    assert data["final"] == data["standings"]
    byes = Counter(name for r in data["schedule"] for name in r["byes"])
    assert len(byes) == 3 and set(byes.values()) == {1}  # three byes, three entrants
    pairs = Counter(
        frozenset(s["name"] for s in t["seats"]) for r in data["schedule"] for t in r["tables"]
    )
    assert max(pairs.values()) == 1  # nobody met anyone twice
    for r in data["schedule"]:
        for t in r["tables"]:
            assert t["finished"] is True
            assert sorted(s["points"] for s in t["seats"]) in ([0.0, 1.0], [0.5, 0.5])
    # every round gives out 2 points at its tables and 1 for the bye
    assert sum(line["points"] for line in data["final"]) == pytest.approx(9.0)
    lines = data["final"]
    keys = [(-x["points"], -x["buchholz"], -x["score"], -x["wins"]) for x in lines]
    assert keys == sorted(keys)
    assert lines[0]["rank"] == 1
    assert {x["name"] for x in lines} == {*people, "Robo"}
    assert next(x for x in lines if x["name"] == "Robo")["bot"] is True
    listed = client.get("/api/events").json()
    assert [e["id"] for e in listed["finished"]] == [eid]  # finished events stay browsable


def test_a_no_show_is_replaced_placed_last_and_withdrawn(client: TestClient, wall: Wall) -> None:
    people = {n: Browser(client, n) for n in ("Ada", "Bea", "Cal", "Dot")}
    eid = new_event(people["Ada"], rounds=2, stand_in="easy")["id"]
    for p in people.values():
        assert p.post(f"/api/events/{eid}/join").status_code == 200
    data = people["Ada"].post(f"/api/events/{eid}/start").json()
    tables = tables_of(data, 1)
    hub = hub_of(client)
    # Dot never comes: everyone else plays; after the away limit (the events' 300 s at a
    # table without a clock) a bot makes Dot's first move
    dots = next(t for t in tables if "Dot" in {s["name"] for s in t["seats"]})
    other = next(t for t in tables if t is not dots)
    play_table(client, other["game_id"], people, {})
    gid = dots["game_id"]

    async def check() -> bool:
        room = await hub.room(gid)
        assert room.stored.table.away_limit == runner.NO_SHOW
        return bool(await room.watch.check())

    opponent = next(s["name"] for s in dots["seats"] if s["name"] != "Dot")
    key = people[opponent].post(f"/api/account/games/{gid}/key").json()
    with seated(client, gid, key["token"]) as seat:
        wall.t += runner.NO_SHOW + 1
        dot_seat = next(s["seat"] for s in dots["seats"] if s["name"] == "Dot")
        while not seat.state["finished"]:
            state = seat.state
            if state["current_player"] == dot_seat:
                if state["seats"][dot_seat]["stand_in"] is None:
                    # what the room's timer does when it fires (it may have fired already)
                    client.portal.call(check)  # type: ignore[union-attr]
                seat.at(state["position"] + 1)
            else:
                seat.move()
                seat.at(state["position"] + 1)
        assert seat.state["seats"][dot_seat]["stand_in_why"] == "away"
        assert "bot:easy" in seat.state["authors"]
    tick(client)
    data = eventually(lambda: (d := event_of(client, eid))["round"] == 2 and d)
    done = next(t for t in tables_of(data, 1) if t["game_id"] == gid)
    dot = next(s for s in done["seats"] if s["name"] == "Dot")
    assert dot["no_show"] is True and dot["place"] == 2 and dot["points"] == 0.0
    assert next(e for e in data["roster"] if e["name"] == "Dot")["why"] == "no_show"
    round_two = data["schedule"][1]
    assert "Dot" not in {s["name"] for t in round_two["tables"] for s in t["seats"]}
    assert "Dot" not in round_two["byes"] and len(round_two["byes"]) == 1
    data = play_round(client, eid, 2, people)
    assert data["status"] == "finished"
    dot_line = next(x for x in data["final"] if x["name"] == "Dot")
    assert dot_line["withdrawn"] is True and dot_line["rank"] == 4


def test_an_event_never_seats_a_blocked_pair_while_another_pairing_exists(
    client: TestClient,
) -> None:
    """Four entrants over three rounds at tables of two: without the block each pair would
    meet once; with Bea blocking Ada (after both entered) the two never sit together, and
    a repeated meeting takes the place of their game."""
    people = {n: Browser(client, n) for n in ("Ada", "Bea", "Cal", "Dot")}
    eid = new_event(people["Ada"], rounds=3)["id"]
    for p in people.values():
        assert p.post(f"/api/events/{eid}/join").status_code == 200
    r = people["Bea"].post("/api/account/block", {"name": "Ada"})
    assert r.status_code == 200 and r.json()["blocked"] == ["Ada"]
    people["Ada"].post(f"/api/events/{eid}/start")
    for round_no in (1, 2, 3):
        data = play_round(client, eid, round_no, people)
    assert data["status"] == "finished"
    pairs = Counter(
        frozenset(s["name"] for s in t["seats"]) for r in data["schedule"] for t in r["tables"]
    )
    assert sum(pairs.values()) == 6 and frozenset(("Ada", "Bea")) not in pairs
    assert max(pairs.values()) == 2  # a pair met again rather than Ada meet Bea


def test_leaving_a_running_event_withdraws_from_the_next_rounds(client: TestClient) -> None:
    people = {n: Browser(client, n) for n in ("Ada", "Bea", "Cal")}
    eid = new_event(people["Ada"], rounds=3)["id"]
    for p in people.values():
        p.post(f"/api/events/{eid}/join")
    people["Ada"].post(f"/api/events/{eid}/start")
    r = people["Cal"].post(f"/api/events/{eid}/leave")
    assert r.json() == {"event_id": eid, "joined": True, "withdrawn": True}
    data = play_round(client, eid, 1, people)
    # two left: round 2 is theirs; Cal's results stand
    assert data["round"] == 2
    assert {s["name"] for t in tables_of(data, 2) for s in t["seats"]} == {"Ada", "Bea"}
    assert next(e for e in data["roster"] if e["name"] == "Cal")["why"] == "left"
    people["Bea"].post(f"/api/events/{eid}/leave")
    data = play_round(client, eid, 2, people)
    assert data["status"] == "finished" and data["round"] == 2  # one left: over early


def test_the_round_advances_once_with_two_servers_on_one_store(
    db_url: str, client: TestClient, wall: Wall
) -> None:
    people = {n: Browser(client, n) for n in ("Ada", "Bea", "Cal", "Dot")}
    eid = new_event(people["Ada"], rounds=2)["id"]
    for p in people.values():
        p.post(f"/api/events/{eid}/join")
    data = people["Ada"].post(f"/api/events/{eid}/start").json()
    for table in tables_of(data, 1):
        play_table(client, table["game_id"], people, {})
    with make(db_url, wall) as other:
        hubs = [hub_of(client), hub_of(other)]
        portals = [client.portal, other.portal]

        def call(i: int, fn: Any, *args: Any) -> Any:
            return portals[i].call(fn, *args)  # type: ignore[union-attr]

        event = event_rows.event(hubs[0].store.engine, eid)
        assert event is not None
        recorded = [call(i, runner.record_over, hubs[i], event) for i in (1, 0)]
        assert sorted(recorded) == [0, 2]  # each table written once
        event = event_rows.event(hubs[0].store.engine, eid)
        moved = [call(i, runner.advance, hubs[i], event) for i in (1, 0)]
        assert moved == [True, False]
        # the loser's own pairing of the same round is refused by the store, too
        again = event_rows.advance(hubs[0].store.engine, eid, 1, ([[1, 2]], []))
        assert again is False
        engine = hubs[0].store.engine
        with engine.connect() as conn:
            made = conn.execute(
                select(func.count())
                .select_from(event_rows.TABLES)
                .where(event_rows.TABLES.c.event_id == eid, event_rows.TABLES.c.round == 2)
            ).scalar()
        assert made == 2
        call(0, runner.make_tables, hubs[0], eid)
        data = event_of(client, eid)
        assert data["round"] == 2 and all(t["game_id"] for t in tables_of(data, 2))
        games_made = {t["game_id"] for t in tables_of(data, 2)}
        for person in people.values():  # each person has one table of round 2, not two
            mine = person.get("/api/account/games").json()
            ids = {g["id"] for key in ("turn", "playing") for g in mine[key]}
            assert len(ids & games_made) == 1


def test_a_rated_round_robin_meets_everyone_and_rates_its_games(client: TestClient) -> None:
    people = {n: Browser(client, n) for n in ("Ada", "Bea", "Cal")}
    made = new_event(people["Ada"], format="round_robin", rounds=None, rated=True)
    eid = made["id"]
    assert made["rounds"] is None
    for p in people.values():
        p.post(f"/api/events/{eid}/join")
    data = people["Ada"].post(f"/api/events/{eid}/start").json()
    assert data["rounds"] == 3  # three entrants: each sits one round out
    for round_no in (1, 2, 3):
        data = play_round(client, eid, round_no, people)
    assert data["status"] == "finished"
    tables = [t for r in data["schedule"] for t in r["tables"]]
    pairs = [frozenset(s["name"] for s in t["seats"]) for t in tables]
    assert sorted(map(sorted, pairs)) == [["Ada", "Bea"], ["Ada", "Cal"], ["Bea", "Cal"]]
    assert sorted(b for r in data["schedule"] for b in r["byes"]) == ["Ada", "Bea", "Cal"]
    for r in data["schedule"]:
        summary = client.get(f"/api/games/{r['tables'][0]['game_id']}").json()
        assert summary["rated"] is True
    board = eventually(
        lambda: (
            (b := client.get("/api/leaderboard", params={**TOY}).json())["players"]
            and len(b["players"]) == 3
            and b
        )
    )
    assert {p["name"] for p in board["players"]} == set(people)
    for p in board["players"]:
        assert p["games"] == 2


def test_an_event_starts_by_itself_at_its_time_or_is_called_off(
    client: TestClient, wall: Wall
) -> None:
    ada, bea = Browser(client, "Ada"), Browser(client, "Bea")
    at = "2027-01-15T08:10:00Z"  # ten minutes after the wall clock
    full = new_event(ada, starts=at, rounds=1)["id"]
    empty = new_event(ada, starts=at, rounds=1)["id"]
    for p in (ada, bea):
        p.post(f"/api/events/{full}/join")
    ada.post(f"/api/events/{empty}/join")
    tick(client)
    assert event_of(client, full)["status"] == "open"
    wall.t += 600
    tick(client)
    data = event_of(client, full)
    assert data["status"] == "running" and len(tables_of(data, 1)) == 1
    assert event_of(client, empty)["status"] == "cancelled"


def test_the_operator_schedules_an_event_with_polis_admin(
    db_url: str, client: TestClient, wall: Wall
) -> None:
    from typer.testing import CliRunner

    from polis.cli.main import app

    cli = CliRunner()
    args = ["admin", "event", "Winter cup", "--game", "counting", "--db", db_url]
    refused = cli.invoke(app, [*args, "--starts", "2020-01-01T00:00Z"])
    assert refused.exit_code == 2 and "past" in refused.output
    refused = cli.invoke(app, [*args, "--starts", "2099-01-01T00:00", "--rounds", "2"])
    assert refused.exit_code == 2 and "time zone" in refused.output
    refused = cli.invoke(
        app, [*args, "--starts", "2099-01-01T00:00Z", "--format", "round_robin", "--rounds", "2"]
    )
    assert refused.exit_code == 2 and "as many rounds" in refused.output
    # the command checks the start against the real time: so does the wall from here on
    wall.t = time.time()
    at = datetime.fromtimestamp(wall.t + 86400, UTC).replace(microsecond=0)
    made = cli.invoke(app, [*args, "--starts", at.isoformat(), "--rounds", "2"])
    assert made.exit_code == 0, made.output
    event_id = made.output.strip()
    data = event_of(client, event_id)
    assert data["creator"] is None and data["can_start"] is False and data["rounds"] == 2
    assert data["rules"]["away_limit"] is None and data["status"] == "open"
    ada, bea = Browser(client, "Ada"), Browser(client, "Bea")
    for person in (ada, bea):
        assert person.post(f"/api/events/{event_id}/join").status_code == 200
    assert ada.post(f"/api/events/{event_id}/start").status_code == 403  # only its time
    tick(client)
    assert event_of(client, event_id)["status"] == "open"
    wall.t = at.timestamp()
    tick(client)
    data = event_of(client, event_id)
    assert data["status"] == "running" and len(tables_of(data, 1)) == 1
