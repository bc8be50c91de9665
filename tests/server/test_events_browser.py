"""An event in a real browser: a Swiss event of six entrants over three rounds, people and
bots, runs to its final standings shown on the event's page, with a no-show handled.

The server runs in a thread of the test's process (``botplay.ThreadServer``: it serves the
toy game "counting", which a ``polis serve`` process does not know, and runs the events' own
loop as a server does). The entrants: Ada, who joins and starts the event on its page in the
browser; Bea and Cal, people whose moves go over the WebSocket from "My games" (speed); Dot,
a person who never comes (a no-show: after the tables' away limit a bot makes her first move,
she is placed last there and plays no more rounds); and two bot accounts playing through the
bot API with the Python client (``polis.client.BotRunner``, each in a thread), which find
their event tables on their event streams.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from botplay import Person, ThreadServer, bot_account, play_person
from polis.client import AgentMaker, BotClient, BotRunner
from polis.server.accounts import throttle
from waiting import eventually

from .browser_helpers import BROWSER_TESTS, axe_problems, overflow, page_errors, shoot

pytestmark = BROWSER_TESTS

PASSWORD = "correct horse battery"
#: Seconds a person may be away on their turn at the event's tables: Dot's no-show.
AWAY = 5


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadServer]:
    monkeypatch.setattr(throttle, "SIGNUPS_PER_ADDRESS", 100)  # everyone signs up from here
    with ThreadServer(f"sqlite:///{tmp_path / 'polis.db'}") as server:
        yield server


class Player(threading.Thread):
    """A person who plays every table of theirs from "My games" until told to stop."""

    def __init__(self, person: Person, base: str, seed: int) -> None:
        super().__init__(name=f"player-{person.name}", daemon=True)
        self.person = person
        self.base = base
        self.rng = random.Random(seed)
        self.done: set[str] = set()
        self.stop = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                mine = self.person.get("/api/account/games").json()
                tables = [g["id"] for g in mine["turn"] + mine["playing"]]
                for game_id in (g for g in tables if g not in self.done):
                    token = self.person.seat_token(game_id)
                    play_person(self.base, game_id, token, self.rng)
                    self.done.add(game_id)
                self.stop.wait(0.3)
        except BaseException as exc:  # the test reads it
            self.failure = exc


def test_a_swiss_event_of_six_people_and_bots_runs_to_its_final_standings(
    live: ThreadServer, browser: Any, shots: Path
) -> None:
    base = live.base
    ada, bea, cal, dot = (Person(base, n) for n in ("Ada", "Bea", "Cal", "Dot"))
    made = ada.post(
        "/api/events",
        {
            "name": "Counting cup",
            "game": "counting",
            "mode": "basic",
            "players": 2,
            "format": "swiss",
            "rounds": 3,
            "away_limit": AWAY,
            "stand_in": "easy",
        },
    )
    assert made.status_code == 200, made.text
    event_id = made.json()["id"]
    for person in (bea, cal, dot):
        assert person.post(f"/api/events/{event_id}/join").status_code == 200
    runners: list[BotRunner] = []
    threads: list[threading.Thread] = []
    for name in ("Robo", "Tron"):
        _owner, token = bot_account(base, name)
        joined = BotClient(base, token).http.post(f"/api/events/{event_id}/join")
        assert joined.status_code == 200, joined.text
        bot = BotRunner(BotClient(base, token), AgentMaker("random"), say=lambda line: None)
        runners.append(bot)
        threads.append(threading.Thread(target=bot.run, name=f"bot-{name}", daemon=True))
    players = [Player(p, base, seed) for seed, p in enumerate((ada, bea, cal))]
    for thread in [*threads, *players]:
        thread.start()

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = page_errors(page)
    try:
        # Ada signs in in the browser, finds the event from the lobby, joins and starts it
        page.goto(f"{base}/#/signin")
        page.wait_for_selector("#signin-form")
        page.fill("#signin-name", "Ada")
        page.fill("#signin-password", PASSWORD)
        page.click("#signin-submit")
        page.wait_for_selector("#my-title")
        page.click("#my-events-link")
        page.wait_for_selector(f"#events-upcoming [data-event='{event_id}']")
        page.click(f"#events-upcoming [data-event='{event_id}'] a.event-link")
        page.wait_for_selector("#event-join")
        page.click("#event-join")
        page.wait_for_selector("#event-entered")
        assert page.locator("#event-roster li").count() == 6
        assert page.locator("#event-roster li .badge").count() == 2  # the two bots, marked
        page.click("#event-start")
        page.wait_for_selector("#event-status[data-status='running']")
        assert page.locator(".event-round[data-round='1'] .event-table").count() == 3
        shoot(page, shots, "event-running")

        # the rounds play themselves out; the page shows the final table
        page.wait_for_selector("#event-final-table", timeout=240_000)
        for player in players:
            assert player.failure is None, player.failure
        rows = page.locator("#event-final-table tbody tr")
        assert rows.count() == 6
        names = [rows.nth(i).get_attribute("data-name") for i in range(6)]
        assert sorted(names) == ["Ada", "Bea", "Cal", "Dot", "Robo", "Tron"]
        assert names[-1] == "Dot"  # no points after her no-show
        dot_row = page.locator("#event-final-table tr[data-name='Dot']")
        assert dot_row.locator(".badge").count() == 1  # withdrawn
        assert page.locator("#event-status").get_attribute("data-status") == "finished"
        assert page.locator(".event-round").count() == 3
        # Dot's table of round 1 says she did not come; she sits at no later table
        assert page.locator(".event-round[data-round='1'] .no-show").count() == 1
        later = page.locator(".event-round[data-round='2'], .event-round[data-round='3']")
        assert "Dot" not in later.all_inner_texts()[0] + later.all_inner_texts()[1]
        assert page.locator(".event-byes").count() == 2  # five left: a bye a round
        points = [float(rows.nth(i).locator("td.points").inner_text()) for i in range(6)]
        assert points == sorted(points, reverse=True) and sum(points) == pytest.approx(9.0)
        data = ada.get(f"/api/events/{event_id}").json()
        assert data["final"] == data["standings"] and data["round"] == 3
        assert next(e for e in data["roster"] if e["name"] == "Dot")["why"] == "no_show"
        assert axe_problems(page) == []
        shoot(page, shots, "event-final")
        page.set_viewport_size({"width": 390, "height": 844})
        assert overflow(page) == []
        shoot(page, shots, "event-final-phone")
        page.set_viewport_size({"width": 1280, "height": 900})
        # finished events stay browsable: listed with the finished ones
        page.click("#event-head a[href='#/events']")
        page.wait_for_selector(f"#events-finished [data-event='{event_id}']")
        assert [e for e in errors if "Failed to load resource" not in e] == []
    finally:
        context.close()
        for player in players:
            player.stop.set()
        for bot in runners:
            bot.stop()
        for thread in [*threads, *players]:
            thread.join(30)
    eventually(lambda: all(not t.is_alive() for t in threads), "a bot did not stop")
