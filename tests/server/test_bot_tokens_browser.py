"""Bot accounts and their API tokens in a real browser: an account signed up on the page
becomes a bot account on its account page, makes a token that is shown once (and copied),
which then opens the bot API; revoked there with a confirm, the token is refused (401). An
account that has played a game is refused in the server's words. A person ticks "allow bots"
on a new table in the lobby, the open tables say so, and a bot's token takes the open seat
through ``POST /api/bot/games/{id}/seats``. axe-core on the account page's bot section and the
lobby's form, with screenshots on a phone and a desktop in both themes (set
POLIS_SCREENSHOTS to a folder to keep them).

Each person comes from an address of their own (``X-Forwarded-For``, which the server trusts
from the loopback): the server limits sign-ups and sign-ins per address.
"""

from __future__ import annotations

import http.cookiejar
import itertools
import json
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
    go,
    open_page,
    overflow,
    sign_in,
)
from .browsers import PASSWORD

pytestmark = BROWSER_TESTS

#: A fresh address for each person (10.42.0.n).
ADDRESSES = (f"10.42.{n // 250}.{n % 250 + 1}" for n in itertools.count())


def call(
    base: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    opener: Any = None,
) -> tuple[int, Any]:
    """An HTTP request: (status, JSON answer)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data, {"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with (opener or urllib.request.build_opener()).open(request, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def with_token(server: ServerProcess, path: str, token: str, body: Any = None) -> tuple[int, Any]:
    """A bot API request with ``Authorization: Bearer <token>``."""
    return call(server.base, path, body, {"Authorization": f"Bearer {token}"})


class Person:
    """Someone signed up over HTTP with a session of their own (cookies, CSRF)."""

    def __init__(self, server: ServerProcess, name: str) -> None:
        self.base = server.base
        self.name = name
        self.address = next(ADDRESSES)
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        self.csrf = ""
        self.csrf = self.ok("/api/account/signup", {"name": name, "password": PASSWORD})["csrf"]

    def ok(self, path: str, body: Any = None) -> Any:
        headers = {"X-Forwarded-For": self.address, "X-CSRF-Token": self.csrf}
        status, data = call(self.base, path, body, headers, self.opener)
        assert status == 200, (path, data)
        return data


def bot_with_token(server: ServerProcess, name: str, label: str = "laptop") -> tuple[Person, str]:
    """A bot account made over HTTP, and a live token of it."""
    owner = Person(server, name)
    owner.ok("/api/account/bot", {})
    return owner, owner.ok("/api/account/tokens", {"label": label})["token"]


def browse(browser: Any, width: int = 1366, height: int = 900, *, dark: bool = False) -> Any:
    """A browser context of its own person (an address of its own) that may use the
    clipboard."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=width < 600,
        is_mobile=width < 600,
        color_scheme="dark" if dark else "light",
        extra_http_headers={"X-Forwarded-For": next(ADDRESSES)},
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    return context


def real_errors(errors: list[str]) -> list[str]:
    """The page's errors, without the console's note of an HTTP refusal the test asked for."""
    return [e for e in errors if "Failed to load resource" not in e]


def focused_id(page: Any) -> str:
    found: str = page.evaluate("() => document.activeElement?.id ?? ''")
    return found


# -- a bot account and its token, from the account page -----------------------------------------


def test_a_token_made_on_the_account_page_is_shown_once_works_and_is_revoked(
    server: ServerProcess, browser: Any
) -> None:
    context = browse(browser)
    try:
        page, errors = open_page(context, server, "#/signin")
        page.fill("#signup-name", "Robo")
        page.fill("#signup-password", PASSWORD)
        page.fill("#signup-again", PASSWORD)
        page.click("#signup-submit")
        page.wait_for_selector("#my-title")

        # an account that has played nothing is offered to become a bot account, with a confirm
        go(page, "#/account", "#make-bot")
        assert "bot API" in page.inner_text("#bot-offer")
        assert page.locator("#token-form").count() == 0  # tokens are for bot accounts only
        page.click("#make-bot")
        page.wait_for_selector("#dialog-bot[open]")
        page.click("#dialog-bot-cancel")
        assert page.locator("#token-form").count() == 0
        page.click("#make-bot")
        page.click("#dialog-bot-ok")
        page.wait_for_selector("#token-form")
        assert page.is_visible("#bot-is") and page.is_visible("#token-none")
        assert focused_id(page) == "token-label"
        status, me = call(server.base, "/api/players/Robo")
        assert status == 200 and me["bot"] is True

        # a token, by keyboard only: a label, Enter; the secret is shown once, focused
        page.keyboard.press("Enter")  # no label: asked for one
        page.wait_for_selector("#token-error .error")
        page.keyboard.type("my laptop")
        page.keyboard.press("Enter")
        page.wait_for_selector("#token-secret")
        assert focused_id(page) == "token-secret"
        token = page.input_value("#token-secret")
        assert token.startswith("polis_bot_")
        assert page.get_attribute("#token-secret", "readonly") is not None
        assert "not be shown again" in page.inner_text("#token-once")
        assert page.inner_text("#token-new-title") == "Your new token “my laptop”"
        # the commands that connect, with this server's address and the token
        commands = page.inner_text("#bot-commands")
        assert "pip install 'polis-boardgames[client]'" in commands
        assert f"export POLIS_BOT_TOKEN={token}" in commands
        assert f"polis bot connect --server {server.base} --agent easy" in commands
        # Copy: the clipboard holds it, and a live region says so
        page.keyboard.press("Tab")
        assert focused_id(page) == "token-copy"
        page.keyboard.press("Enter")
        page.wait_for_function(
            "() => document.querySelector('#token-copy-status').textContent !== ''"
        )
        assert page.get_attribute("#token-copy-status", "role") == "status"
        assert page.inner_text("#token-copy-status") == "Copied to the clipboard."
        assert page.evaluate("() => navigator.clipboard.readText()") == token
        row = page.locator("#token-list li.token")
        assert row.count() == 1 and "my laptop" in row.inner_text()
        assert "never used" in row.inner_text()

        # the token opens the bot API
        status, data = with_token(server, "/api/bot/account", token)
        assert status == 200 and data == {"name": "Robo", "bot": True}

        # shown once: back on the page, only its label, when it was made and last used
        go(page, "#/my", "#my-title")
        go(page, "#/account", "#token-list li.token")
        assert page.locator("#token-secret").count() == 0
        assert token not in page.content()
        assert "my laptop" in page.inner_text("#token-list")
        go(page, "#/my", "#my-title")
        go(page, "#/account", "#token-list li.token .token-used:has-text('last used')")

        # revoked with a confirm: refused from then on
        page.click("#token-list li.token .revoke-token")
        page.wait_for_selector("#dialog-revoke[open]")
        assert "my laptop" in page.inner_text("#dialog-revoke-title")
        page.click("#dialog-revoke-cancel")
        assert page.locator("#token-list li[data-revoked='no']").count() == 1
        page.click("#token-list li.token .revoke-token")
        page.click("#dialog-revoke-ok")
        page.wait_for_selector("#token-list li[data-revoked='yes'] .token-revoked")
        assert page.locator("#token-list .revoke-token").count() == 0
        assert focused_id(page) == "tokens-title"
        status, data = with_token(server, "/api/bot/account", token)
        assert status == 401 and data["error"]["code"] == "unauthorized"
        assert real_errors(errors) == []
    finally:
        context.close()


def test_an_account_that_has_played_is_refused_in_the_servers_words(
    server: ServerProcess, browser: Any, shots: Path
) -> None:
    ada = Person(server, "Ada")
    ada.ok(
        "/api/games",
        {
            "game": "quadropolis",
            "mode": "classic",
            "seats": [{"name": "Ada", "kind": "human"}, {"name": "B", "kind": "bot"}],
        },
    )
    context = browse(browser, 390, 844)
    try:
        page, errors = open_page(context, server)
        sign_in(page, "Ada")
        go(page, "#/account", "#make-bot")
        page.click("#make-bot")
        page.click("#dialog-bot-ok")
        page.wait_for_selector("#bot-error .error")
        said = page.inner_text("#bot-error")
        assert "has played a game already" in said
        assert "only an account that has played no game may become a bot account" in said
        assert focused_id(page) == "make-bot"
        page.locator("#bot").screenshot(path=shots / "bot-refused-390x844.png")
        assert page.locator("#token-form").count() == 0
        status, data = call(server.base, "/api/players/Ada")
        assert status == 200 and data["bot"] is False
        assert real_errors(errors) == []
    finally:
        context.close()


# -- a table that lets bots sit -----------------------------------------------------------------


def test_a_table_made_to_allow_bots_seats_a_bot_token_at_its_open_seat(
    server: ServerProcess, browser: Any, shots: Path
) -> None:
    _owner, token = bot_with_token(server, "Tron")
    context = browse(browser)
    watcher = browse(browser, 390, 844)
    try:
        page, errors = open_page(context, server)
        page.wait_for_selector("#create")
        page.select_option("#game", "quadropolis")
        assert page.locator("#allow-bots").count() == 0  # no open seat: nothing to offer
        page.select_option(".seat-row[data-seat='1'] select.kind", "open")
        page.wait_for_selector("#allow-bots")
        assert "bot API" in page.inner_text("label:has(#allow-bots)")
        assert not page.is_checked("#allow-bots")
        page.focus("#allow-bots")
        page.keyboard.press("Space")
        assert page.is_checked("#allow-bots")
        page.click("#create")
        page.wait_for_selector("#site")
        game_id = page.evaluate("location.hash.split('/')[2]")
        assert server.api(f"/api/games/{game_id}")["bots"] is True
        listed = server.api("/api/tables")["tables"]
        assert [t["bots"] for t in listed if t["id"] == game_id] == [True]

        # the open tables say that bots may sit there
        other, other_errors = open_page(watcher, server)
        badge = f"#open-tables li[data-game='{game_id}'] .badge.bots-welcome"
        other.wait_for_selector(badge)
        assert other.inner_text(badge) == "Bots welcome"
        other.locator("#open-tables").screenshot(path=shots / "bot-open-tables-390x844.png")

        # the bot's token takes the open seat; the table shows it seated
        status, tables = with_token(server, "/api/bot/tables", token)
        assert status == 200 and [t["id"] for t in tables["tables"]] == [game_id]
        status, seated = with_token(server, f"/api/bot/games/{game_id}/seats", token, {})
        assert status == 200 and seated == {"game_id": game_id, "seat": 1}
        page.wait_for_selector(".seat-list li[data-seat='1']:has-text('Tron')")
        summary = server.api(f"/api/games/{game_id}")
        assert summary["seats"][1]["account"] == "Tron" and not summary["seats"][1]["vacant"]
        eventually(
            lambda: not server.api("/api/tables")["tables"], "the table is still open", timeout=10
        )

        # a table made without the box is closed to bots
        go(page, "#/", "#create")
        page.select_option("#game", "metropolys")
        page.select_option(".seat-row[data-seat='1'] select.kind", "open")
        page.wait_for_selector("#allow-bots")
        assert not page.is_checked("#allow-bots")
        page.click("#create")
        page.wait_for_function(
            "(old) => /^#\\/game\\/[^/]+$/.test(location.hash) && !location.hash.includes(old)",
            arg=game_id,
        )
        shut = page.evaluate("location.hash.split('/')[2]")
        assert shut != game_id and server.api(f"/api/games/{shut}")["bots"] is False
        _other_owner, other_token = bot_with_token(server, "Nova")
        status, data = with_token(server, f"/api/bot/games/{shut}/seats", other_token, {})
        assert status == 403 and '"bots"' in data["error"]["message"]
        assert real_errors(errors) == [] and real_errors(other_errors) == []
    finally:
        context.close()
        watcher.close()


# -- accessibility and looks ------------------------------------------------------------------


@pytest.fixture(scope="module")
def looked_at(server: ServerProcess) -> str:
    """A bot account with a used token and a revoked one (every part of the token list)."""
    owner, used = bot_with_token(server, "Looker", "home server")
    assert with_token(server, "/api/bot/account", used)[0] == 200
    gone = owner.ok("/api/account/tokens", {"label": "old laptop"})
    owner.ok(f"/api/account/tokens/{gone['id']}/revoke", {})
    Person(server, "Plain")  # an account that may still become a bot account
    return "Looker"


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 900)])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_bot_section_and_the_lobby_box_pass_axe_and_fit_on_a_phone_and_a_desktop(
    server: ServerProcess,
    browser: Any,
    looked_at: str,
    shots: Path,
    width: int,
    height: int,
    dark: bool,
) -> None:
    context = browse(browser, width, height, dark=dark)
    theme = "dark" if dark else "light"
    size = f"{width}x{height}"
    found: dict[str, list[str]] = {}
    wide: dict[str, list[str]] = {}

    def look(name: str, selector: str) -> None:
        page.evaluate("() => { document.getElementById('toast').hidden = true; }")
        page.locator(selector).screenshot(
            path=shots / f"bot-{name}-{theme}-{size}.png", animations="disabled"
        )
        found[name] = axe_problems(page)
        wide[name] = overflow(page)

    try:
        page, errors = open_page(context, server)
        # the lobby's form with an open seat and the box ticked
        page.wait_for_selector("#create")
        page.select_option(".seat-row[data-seat='1'] select.kind", "open")
        page.check("#allow-bots")
        look("lobby", "#new-game")

        # a person's account page: the offer
        sign_in(page, "Plain")
        go(page, "#/account", "#passkey-add")  # the page has what it asked for
        look("offer", "#bot")

        # the bot account's: its tokens, a new one shown once, the commands
        page.click("#account-menu > summary")
        page.click("#sign-out")
        page.wait_for_selector("#sign-in-link")
        sign_in(page, looked_at)
        go(page, "#/account", "#token-list li[data-revoked='yes']")
        page.fill("#token-label", f"shot {theme} {size}")
        page.click("#token-create")
        page.wait_for_selector("#token-secret")
        page.click("#token-copy")
        page.wait_for_function(
            "() => document.querySelector('#token-copy-status').textContent !== ''"
        )
        look("tokens", "#bot")
        page.screenshot(
            path=shots / f"bot-account-{theme}-{size}.png", full_page=True, animations="disabled"
        )
        # the revoke dialog
        page.click("#token-list li[data-revoked='no'] .revoke-token >> nth=0")
        page.wait_for_selector("#dialog-revoke[open]")
        page.screenshot(path=shots / f"bot-revoke-{theme}-{size}.png", animations="disabled")
        found["revoke"] = axe_problems(page)
        page.click("#dialog-revoke-cancel")
        assert {k: v for k, v in found.items() if v} == {}
        assert {k: v for k, v in wide.items() if v} == {}
        assert real_errors(errors) == []
    finally:
        context.close()
