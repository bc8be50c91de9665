"""Accounts in a real browser: signing up, "My games" with its turn badge on a second browser
that signs in, a rated Quadropolis game between two accounts changing both ratings on their
profiles and the leaderboard, a challenge sent from a profile and accepted from "My games", a
blocked player refused (in words), a seat held by link kept in "My games", the chat's Mute and
Report; axe-core on the account pages, and their screenshots on a phone and a desktop in both
themes (set POLIS_SCREENSHOTS to a folder to keep them).

Each person here has a browser context (or an HTTP client) of their own, coming from an
address of their own through the loopback proxy the server trusts by default
(``X-Forwarded-For``): the server limits sign-ups and sign-ins per address, and these are
different people. Most moves of the rated game are played over the WebSocket (speed); the
table is open in a browser meanwhile and shows the end.
"""

from __future__ import annotations

import http.cookiejar
import itertools
import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from waiting import eventually

from .browser_helpers import (
    BROWSER_TESTS,
    ServerProcess,
    axe_problems,
    click_quadropolis_move,
    go,
    open_page,
    overflow,
    page_errors,
    position,
    sign_in,
    wait_position,
)
from .browsers import PASSWORD
from .clients import Player

pytestmark = BROWSER_TESTS

#: A fresh address for each person (10.39.0.n), so per-address limits see different people.
ADDRESSES = (f"10.39.{n // 250}.{n % 250 + 1}" for n in itertools.count())
#: The account pages scanned and photographed.
PAGES = ["signin", "account", "my", "profile", "leaderboard"]


class Person:
    """Someone using the server over HTTP with a session of their own (cookies, CSRF)."""

    def __init__(self, server: ServerProcess, name: str, *, sign_up: bool = True) -> None:
        self.base = server.base
        self.name = name
        self.address = next(ADDRESSES)
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = ""
        if sign_up:
            status, data = self.call("/api/account/signup", {"name": name, "password": PASSWORD})
            assert status == 200, data
            self.csrf = data["csrf"]

    def call(self, path: str, body: Any = None, method: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json", "X-Forwarded-For": self.address}
        if self.csrf:
            headers["X-CSRF-Token"] = self.csrf
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with self.opener.open(request, timeout=30) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def ok(self, path: str, body: Any = None) -> Any:
        status, data = self.call(path, body)
        assert status == 200, (path, data)
        return data


def browse(browser: Any, width: int = 1366, height: int = 900, *, dark: bool = False) -> Any:
    """A browser context of its own person (an address of its own)."""
    return browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=width < 600,
        is_mobile=width < 600,
        color_scheme="dark" if dark else "light",
        extra_http_headers={"X-Forwarded-For": next(ADDRESSES)},
    )


def real_errors(errors: list[str]) -> list[str]:
    """The page's errors, without the console's note of an HTTP refusal the test asked for."""
    return [e for e in errors if "Failed to load resource" not in e]


def play_out(server: ServerProcess, game_id: str, tokens: dict[int, str]) -> None:
    """Play a game to its end over the WebSocket: each seat its first legal move."""
    players = {seat: Player(server.base, game_id, token) for seat, token in tokens.items()}
    moved = dict.fromkeys(players, -1)
    try:
        for _ in range(5000):
            for player in players.values():
                try:
                    while True:
                        player.next(timeout=0.02)
                except TimeoutError:
                    pass
            latest = max((p.state for p in players.values()), key=lambda s: s["position"])
            if latest["finished"]:
                return
            for seat, player in players.items():
                state = player.state
                mine = state["current_player"] == seat and state.get("legal")
                fresh = state["position"] == latest["position"] != moved[seat]
                if mine and fresh:
                    player.move()
                    moved[seat] = state["position"]
        raise AssertionError("the game did not end")
    finally:
        for player in players.values():
            player.close()


def rating_of(page: Any, game: str, mode: str) -> int:
    cell = page.locator(f"#ratings-table tr[data-game='{game}'][data-mode='{mode}'] .rating")
    return int(re.match(r"\d+", cell.inner_text()).group(0))  # type: ignore[union-attr]


def settled(person: Person, name: str) -> bool:
    status, data = person.call(f"/api/players/{name}")
    return status == 200 and bool(data["ratings"])


# -- signing up, and My games on a second browser -----------------------------------------------


def test_sign_up_then_my_games_with_its_turn_badge_on_a_second_browser(
    server: ServerProcess, browser: Any
) -> None:
    desk = browse(browser)
    phone = browse(browser, 390, 844)
    try:
        page, errors = open_page(desk, server, "#/signin")
        # the rules are shown before anyone types, and a weak password is refused in words
        assert "10" in page.inner_text("#password-rules")
        page.fill("#signup-name", "Ada")
        page.fill("#signup-password", "short")
        page.fill("#signup-again", "short")
        page.click("#signup-submit")
        assert "10" in page.inner_text("#signup-error")
        # a common password passes the page's own checks: the server's refusal is worded
        page.fill("#signup-password", "password123")
        page.fill("#signup-again", "password123")
        page.click("#signup-submit")
        page.wait_for_selector("#signup-error .error")
        assert "attackers try first" in page.inner_text("#signup-error")
        page.fill("#signup-password", PASSWORD)
        page.fill("#signup-again", PASSWORD)
        page.click("#signup-submit")
        page.wait_for_selector("#my-title")
        assert page.inner_text("#account-menu .account-name") == "Ada"
        page.wait_for_selector("#my-turn #turn-list")

        # a table against a bot from the lobby's form: the seat is the account's
        go(page, "#/", "#create")
        assert page.is_visible("#rated")  # offered to the signed-in only
        page.select_option("#game", "quadropolis")
        page.click("#create")
        page.wait_for_selector("#site")
        page.wait_for_selector("#status.your-turn")
        game_id = page.evaluate("location.hash.split('/')[2]")
        assert page.inner_text(".seat-list li[data-seat='0'] .profile-link") == "Ada"
        assert not page.is_visible("#claim-seat")  # bound already

        # the other browser signs in and finds the table first, with its badge
        other, other_errors = open_page(phone, server)
        assert other.is_visible("#sign-in-link")
        sign_in(other, "Ada")
        row = other.locator(f"#turn-list li[data-game='{game_id}']")
        row.wait_for()
        assert row.locator(".badge.your-turn").is_visible()
        assert other.inner_text("#account-menu .turn-count") == "1"
        go(other, "#/", "#my-games-count")
        assert "1" in other.inner_text("#my-games-count")
        go(other, "#/my", f"#turn-list li[data-game='{game_id}'] .open-game")
        other.click(f"#turn-list li[data-game='{game_id}'] .open-game")  # a key for this device
        other.wait_for_selector("#site")
        other.wait_for_selector("#status.your-turn")
        assert other.evaluate("location.hash") == f"#/game/{game_id}"
        assert real_errors(errors) == [] and real_errors(other_errors) == []
    finally:
        desk.close()
        phone.close()


# -- a rated game, ratings on the profiles and the leaderboard ----------------------------------


def test_a_rated_game_between_two_accounts_changes_both_ratings(
    server: ServerProcess, browser: Any
) -> None:
    rita, sam = Person(server, "Rita"), Person(server, "Sam")
    made = rita.ok(
        "/api/games",
        {
            "game": "quadropolis",
            "mode": "classic",
            "rated": True,
            "seats": [{"name": "Rita", "kind": "human"}, {"kind": "open"}],
        },
    )
    taken = sam.ok(f"/api/games/{made['id']}/seats", {"name": "Sam"})
    context = browse(browser)
    try:
        page, errors = open_page(context, server)
        sign_in(page, "Rita")
        go(page, "#/player/Rita", "#no-ratings")  # no rating before the first rated game
        go(page, "#/my", f"li[data-game='{made['id']}'] .open-game")
        assert page.is_visible(f"li[data-game='{made['id']}'] .badge.rated")
        page.click(f"li[data-game='{made['id']}'] .open-game")
        page.wait_for_selector("#site")
        page.wait_for_function("() => document.querySelector('#status').textContent !== ''")
        assert page.is_visible("#rated-badge")
        assert page.locator(".seat-list .profile-link").all_inner_texts() == ["Rita", "Sam"]
        if page.query_selector("#status.your-turn") is not None:  # one move by clicks
            before = position(page)
            click_quadropolis_move(page)
            if page.query_selector("#confirm-move") is not None:
                page.click("#confirm-move")
            wait_position(page, f"> {before}")
        play_out(server, made["id"], {0: made["seats"][0]["token"], 1: taken["token"]})
        page.wait_for_selector("#scorepad", timeout=60_000)  # the table shows the end
        eventually(lambda: settled(rita, "Rita") and settled(rita, "Sam"), "no ratings", timeout=30)

        ratings = {}
        for name in ("Rita", "Sam"):
            go(page, f"#/player/{name}", "#ratings-table")
            ratings[name] = rating_of(page, "quadropolis", "classic")
            row = page.locator("#ratings-table tr[data-game='quadropolis']")
            assert row.locator(".badge.provisional").is_visible()
            assert page.locator("#profile-history svg.rating-chart circle.pt").count() == 1
            assert page.is_visible(f"#recent-games li[data-game='{made['id']}']")
        assert ratings["Rita"] != ratings["Sam"]
        assert 1500 not in ratings.values()  # a new account's rating is 1500 before
        go(page, "#/leaderboard/quadropolis/classic", "#leaderboard")
        board = {
            name: int(
                re.match(  # type: ignore[union-attr]
                    r"\d+", page.inner_text(f"#leaderboard tr[data-name='{name}'] .rating")
                ).group(0)
            )
            for name in ("Rita", "Sam")
        }
        assert board == ratings
        assert "me" in (page.get_attribute("#leaderboard tr[data-name='Rita']", "class") or "")
        assert real_errors(errors) == []
    finally:
        context.close()


# -- challenges -----------------------------------------------------------------------------


def test_a_challenge_sent_from_a_profile_and_accepted_from_my_games(
    server: ServerProcess, browser: Any
) -> None:
    Person(server, "Cleo")
    Person(server, "Dan")
    cleo_ctx, dan_ctx = browse(browser), browse(browser, 390, 844)
    try:
        cleo, cleo_errors = open_page(cleo_ctx, server)
        sign_in(cleo, "Cleo")
        go(cleo, "#/player/Dan", "#challenge-button")
        cleo.click("#challenge-button")
        cleo.wait_for_selector("#challenge-form")
        assert cleo.input_value("#challenge-to") == "Dan"
        cleo.select_option("#challenge-game", "quadropolis")
        assert cleo.is_checked("#challenge-rated")
        cleo.click("#challenge-submit")
        cleo.wait_for_selector("#outgoing li.challenge")
        assert "Dan" in cleo.inner_text("#outgoing li.challenge")
        assert cleo.is_visible("#outgoing li.challenge .withdraw")

        dan, dan_errors = open_page(dan_ctx, server)
        sign_in(dan, "Dan")
        dan.wait_for_selector("#incoming li.challenge .accept")
        assert "Cleo" in dan.inner_text("#incoming li.challenge")
        dan.click("#incoming li.challenge .accept")
        dan.wait_for_selector("#site")
        dan.wait_for_function("() => document.querySelector('#status').textContent !== ''")
        assert dan.locator(".seat-list .profile-link").all_inner_texts() == ["Cleo", "Dan"]
        game_id = dan.evaluate("location.hash.split('/')[2]")
        # the table is in both accounts' My games
        go(cleo, "#/leaderboard", "#board-controls")
        go(cleo, "#/my", f"li[data-game='{game_id}']")
        assert real_errors(cleo_errors) == [] and real_errors(dan_errors) == []
    finally:
        cleo_ctx.close()
        dan_ctx.close()


def test_a_blocked_player_is_refused_in_words(server: ServerProcess, browser: Any) -> None:
    eve = Person(server, "Eve")
    Person(server, "Finn")
    eve_ctx, finn_ctx = browse(browser), browse(browser)
    try:
        page, errors = open_page(eve_ctx, server)
        sign_in(page, "Eve")
        go(page, "#/player/Finn", "#block-toggle")
        page.click("#block-toggle")
        page.wait_for_selector("#block-toggle[aria-pressed='true']")
        go(page, "#/account", "#blocked-list li[data-name='Finn']")

        # Eve's open table, listed in the lobby
        table = eve.ok(
            "/api/games",
            {
                "game": "quadropolis",
                "mode": "classic",
                "seats": [{"name": "Eve", "kind": "human"}, {"kind": "open"}],
            },
        )
        finn, finn_errors = open_page(finn_ctx, server)
        sign_in(finn, "Finn")
        go(finn, "#/challenge/Eve", "#challenge-form")
        finn.click("#challenge-submit")
        finn.wait_for_selector("#challenge-error .error")
        assert finn.inner_text("#challenge-error .error") == "Eve cannot be challenged by you."
        take = f"#open-tables li[data-game='{table['id']}'] .take-seat"
        go(finn, "#/", take)
        finn.click(take)
        finn.wait_for_function(
            "() => document.querySelector('#toast').textContent.includes('not allowed')"
        )
        assert finn.is_visible("#toast")
        assert finn.evaluate("location.hash") in ("", "#/")
        # taken off the list, Finn may come
        go(page, "#/account", "#blocked-list li[data-name='Finn'] .remove-person")
        page.click("#blocked-list li[data-name='Finn'] .remove-person")
        page.wait_for_selector("#blocked-list:not(ul)")
        assert real_errors(errors) == [] and real_errors(finn_errors) == []
    finally:
        eve_ctx.close()
        finn_ctx.close()


# -- at the table: keeping a seat held by link, muting and reporting ------------------------------


def test_a_seat_held_by_link_is_kept_and_a_chat_line_muted_and_reported(
    server: ServerProcess, browser: Any
) -> None:
    gus = Person(server, "Gus")
    Person(server, "Hal")
    # a guest's table: Hal's seat comes by its invite link, bound to no account
    guest = Person(server, "guest", sign_up=False)
    made = guest.ok(
        "/api/games",
        {
            "game": "quadropolis",
            "mode": "classic",
            "seats": [{"name": "Gus", "kind": "human"}, {"name": "Hal", "kind": "human"}],
        },
    )
    gus.ok("/api/account/claim", {"game_id": made["id"], "token": made["seats"][0]["token"]})
    context = browse(browser)
    try:
        page, errors = open_page(context, server)
        sign_in(page, "Hal")
        page.goto(made["seats"][1]["invite"])
        page.wait_for_selector("#claim-seat")
        assert "Hal" in page.inner_text("#claim")
        page.click("#claim-seat")
        page.wait_for_selector(".seat-list li[data-seat='1'] .profile-link")
        assert not page.is_visible("#claim-seat")
        go(page, "#/my", f"li[data-game='{made['id']}']")
        go(page, f"#/game/{made['id']}", "#chat-form:not([hidden])")

        # Gus says two lines; Hal reports one and mutes him
        gus_seat = Player(server.base, made["id"], made["seats"][0]["token"])
        try:
            for text in ("hello Hal", "you play badly"):
                gus_seat.ws.send(json.dumps({"type": "chat", "text": text}))
        finally:
            gus_seat.close()
        page.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 2")
        line = page.locator("#chat-log li").nth(1)
        line.locator(".report").click()
        page.wait_for_selector("#dialog-report")
        page.click("#dialog-report-ok")  # without a reason: asked for one
        assert page.inner_text("#dialog-report-error") != ""
        page.fill("#report-reason", "rude")
        page.click("#dialog-report-ok")
        page.wait_for_selector("#dialog-report", state="detached")
        line.locator(".mute").click()
        page.wait_for_selector("#chat-hidden:not([hidden])")
        assert page.locator("#chat-log li:not([hidden])").count() == 0
        assert "2" in page.inner_text("#chat-hidden")
        go(page, "#/account", "#muted-list li[data-name='Gus']")
        assert real_errors(errors) == []
    finally:
        context.close()


# -- passkeys through the pages -------------------------------------------------------------


def test_a_passkey_added_on_the_account_page_signs_in_from_the_sign_in_page(
    server: ServerProcess, browser: Any
) -> None:
    """Chromium's virtual authenticator (DevTools' WebAuthn domain) plays the device; the
    pages are opened at localhost, where the server's passkeys live."""
    Person(server, "Vera")
    context = browse(browser)
    try:
        page = context.new_page()
        errors = page_errors(page)
        page.goto(f"http://localhost:{server.port}/#/")
        page.wait_for_selector("#account-slot > *")
        cdp = context.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        options = {
            "protocol": "ctap2",
            "transport": "internal",
            "hasResidentKey": True,
            "hasUserVerification": True,
            "isUserVerified": True,
            "automaticPresenceSimulation": True,
        }
        cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})
        sign_in(page, "Vera")
        go(page, "#/account", "#passkey-none")
        page.click("#passkey-add")
        page.wait_for_selector("#passkey-list li")
        assert page.locator("#passkey-list li").count() == 1
        page.click("#account-menu > summary")
        page.click("#sign-out")
        page.wait_for_selector("#sign-in-link")
        go(page, "#/signin", "#passkey-signin")
        page.click("#passkey-signin")  # no name typed: the device offers its passkey
        page.wait_for_selector("#my-title")
        assert page.inner_text("#account-menu .account-name") == "Vera"
        assert real_errors(errors) == []
    finally:
        context.close()


# -- accessibility and looks ------------------------------------------------------------------


@pytest.fixture(scope="module")
def looked_at(server: ServerProcess) -> dict[str, str]:
    """An account with two rated games behind it (a profile with a chart), a table waiting for
    its move, a challenge to answer and someone blocked and muted: every part of the pages."""
    ivy, joan, kim = Person(server, "Ivy"), Person(server, "Joan"), Person(server, "Kim")
    for _ in range(2):
        made = ivy.ok(
            "/api/games",
            {
                "game": "quadropolis",
                "mode": "classic",
                "rated": True,
                "seats": [{"name": "Ivy", "kind": "human"}, {"kind": "open"}],
            },
        )
        taken = joan.ok(f"/api/games/{made['id']}/seats", {"name": "Joan"})
        play_out(server, made["id"], {0: made["seats"][0]["token"], 1: taken["token"]})

    def both_rated() -> bool:
        return len(ivy.call("/api/players/Ivy")[1]["history"]) == 2

    eventually(both_rated, "no rating history", timeout=30)
    ivy.ok(
        "/api/games",
        {
            "game": "metropolys",
            "mode": "family",
            "seats": [
                {"name": "Ivy", "kind": "human"},
                {"name": "Bot", "kind": "bot", "level": "easy"},
            ],
            "clock": {"kind": "turn", "per_move": 86400, "max_bank": 259200},
        },
    )
    joan.ok("/api/challenges", {"to": "Ivy", "game": "quadropolis", "mode": "classic"})
    ivy.ok("/api/account/block", {"name": kim.name, "on": True})
    ivy.ok("/api/account/mute", {"name": "Joan", "on": True})
    return {
        "signin": "#/signin",
        "account": "#/account",
        "my": "#/my",
        "profile": "#/player/Ivy",
        "leaderboard": "#/leaderboard/quadropolis/classic",
    }


READY = {
    "signin": "#signup-form",
    "account": "#muted-list",
    "my": "#incoming li",
    "profile": "#profile-history svg",
    "leaderboard": "#leaderboard",
}


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 900)])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_account_pages_pass_axe_and_fit_on_a_phone_and_a_desktop(
    server: ServerProcess,
    browser: Any,
    looked_at: dict[str, str],
    shots: Path,
    width: int,
    height: int,
    dark: bool,
) -> None:
    context = browse(browser, width, height, dark=dark)
    theme = "dark" if dark else "light"
    try:
        page, errors = open_page(context, server)
        found: dict[str, list[str]] = {}
        wide: dict[str, list[str]] = {}
        for name in PAGES:
            if name == "account":
                sign_in(page, "Ivy")
            go(page, looked_at[name], READY[name])
            page.evaluate("() => { document.getElementById('toast').hidden = true; }")
            page.screenshot(
                path=shots / f"accounts-{name}-{theme}-{width}x{height}.png",
                full_page=True,
                animations="disabled",
            )
            found[name] = axe_problems(page)
            wide[name] = overflow(page)
        # the header's menu, open
        page.click("#account-menu > summary")
        page.wait_for_selector("#account-panel #sign-out")
        page.screenshot(path=shots / f"accounts-menu-{theme}-{width}x{height}.png")
        found["menu"] = axe_problems(page)
        assert {k: v for k, v in found.items() if v} == {}
        assert {k: v for k, v in wide.items() if v} == {}
        assert real_errors(errors) == []
    finally:
        context.close()
