"""A polis server in a subprocess and a headless Debian chromium, for the browser tests."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any, ClassVar

import pytest

from polis.server.wire.check import VIOLATIONS as CHECK_VIOLATIONS
from polis.server.wire.check import WireError
from waiting import eventually

from .browsers import PASSWORD
from .contract import CHECK, received

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]
#: What a server checking its traffic logs on a message that breaks the wire contract
#: (polis.server.wire.check.MARK).
WIRE_MARK = "wire contract broken"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


#: The marks of every browser test module: ``pytestmark = BROWSER_TESTS``.
BROWSER_TESTS = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM),
        reason=f"{CHROMIUM} is not installed (apt-get install chromium)",
    ),
]


class ServerProcess:
    """``polis serve`` on a free port; can be killed (SIGKILL) and started again on the same db.

    It checks its traffic against the wire contract (``POLIS_CHECK_WIRE=1``): killing it fails
    when its log shows a message that broke it."""

    def __init__(
        self, db_url: str, port: int | None = None, env: dict[str, str] | None = None
    ) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        #: Settings of this server only (``POLIS_*`` variables), over the test process's.
        self.env = env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = Path(tempfile.mkstemp(prefix="polis-browser-serve-", suffix=".log")[1])

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "POLIS_CHECK_WIRE": "1", **self.env}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "polis.cli.main",
                "serve",
                "--port",
                str(self.port),
                "--db",
                self.db_url,
                "--bot-delay",
                "0",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=self.log.open("ab"),
        )
        proc = self.proc

        def answers() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"server died: {self.logged()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{self.base}/api/meta", timeout=2):
                    return True
            except OSError:
                return False

        eventually(answers, "the server did not start", timeout=60, interval=0.2)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        broken = [line for line in self.logged().splitlines() if WIRE_MARK in line]
        assert not broken, "the server broke the wire contract:\n" + "\n".join(broken)

    def logged(self) -> str:
        return self.log.read_text(errors="replace")

    def api(self, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.base + path, data=data, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            return json.loads(resp.read())


def finished(server: ServerProcess, game_id: str, timeout: float = 120) -> None:
    """Until the game (of bots) is over."""
    eventually(
        lambda: server.api(f"/api/games/{game_id}")["finished"],
        "the bots did not finish",
        timeout=timeout,
        interval=0.2,
    )


class FrameLog:
    """Every WebSocket frame the server sends to a page, exactly as sent.

    The page is routed through Playwright: it receives each frame without the ``legal`` list
    of state messages, so the client can only play from the structured ``choices`` (a client
    that read ``legal`` would fail to move, or throw).

    Every frame either way is checked against the wire contract (contract.py): one from the
    server that breaks it fails the test (conftest.py's ``wire_kept``), and so does one the
    page sent, unless the test sent it on purpose (:meth:`expect_unfit`).
    """

    #: Every frame log made in this process (conftest.py checks those of each test).
    made: ClassVar[list[FrameLog]] = []

    def __init__(self, page: Any) -> None:
        self.frames: list[str] = []
        #: Every frame the page sent to the server.
        self.sent: list[str] = []
        #: The frames the page sent that break the contract, with why.
        self.unfit: list[str] = []
        #: How many such frames the test sends on purpose.
        self.unfit_expected = 0
        FrameLog.made.append(self)
        page.route_web_socket(re.compile(r"/ws/"), self._route)

    def expect_unfit(self, count: int) -> None:
        """The test itself makes the page send ``count`` frames that break the contract."""
        self.unfit_expected += count

    def problems(self) -> list[str]:
        """What the frames broke: nothing, or the frames the page sent unasked."""
        if len(self.unfit) == self.unfit_expected:
            return []
        return [f"{len(self.unfit)} unfit frames sent, {self.unfit_expected} expected", *self.unfit]

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            text = message if isinstance(message, str) else message.decode()
            self.frames.append(text)
            received(text)  # a mismatch is kept in VIOLATIONS: conftest.py fails the test
            ws.send(without_legal(text))

        def to_server(message: str | bytes) -> None:
            text = message if isinstance(message, str) else message.decode()
            self.sent.append(text)
            try:
                CHECK.from_client(text)
            except WireError as exc:
                self.unfit.append(str(exc))
                CHECK_VIOLATIONS.remove(str(exc))  # judged by problems() instead
            server.send(message)

        server.on_message(to_page)
        ws.on_message(to_server)

    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(f) for f in self.frames]

    def moves_sent(self) -> list[str]:
        """The move texts the page sent."""
        moves = []
        for frame in self.sent:
            try:
                msg = json.loads(frame)
            except ValueError:
                continue  # a test sending garbage by hand
            if isinstance(msg, dict) and msg.get("type") == "move":
                moves.append(msg["move"])
        return moves

    def offered(self) -> set[str]:
        """Every move text any state message offered as a leaf of its ``choices``."""
        found: set[str] = set()

        def leaves(node: Any, under: str = "") -> None:
            if isinstance(node, dict):
                for key, value in node.items():
                    leaf = key in ("move", "discard", "nothing", "pass") or under == "targets"
                    if isinstance(value, str) and leaf:
                        found.add(value)
                    leaves(value, key)
            elif isinstance(node, list):
                for item in node:
                    leaves(item)

        for msg in self.messages():
            if msg.get("type") == "state":
                leaves(msg["choices"])
        return found

    def assert_moves_came_from_choices(self) -> None:
        """Every move the page sent is the text of a choice the server offered it."""
        sent = self.moves_sent()
        assert sent, "the page sent no move"
        assert set(sent) <= self.offered(), set(sent) - self.offered()


def without_legal(text: str) -> str:
    """A server frame as the page gets it: state messages lose their ``legal`` list."""
    msg = json.loads(text)
    if msg.get("type") != "state":
        return text
    assert "choices" in msg, "every state message carries choices (null when not to move)"
    msg.pop("legal", None)
    return json.dumps(msg)


#: JavaScript: the number of moves the page's log covers (the position shown).
LOG_POSITION = "Number(document.querySelector('#log')?.dataset.position ?? -1)"


def wait_turn_or_end(page: Any, timeout: float = 120_000) -> bool:
    """Wait until this page may move (True) or shows the score pad (False)."""
    page.wait_for_function(
        "() => document.querySelector('#scorepad') || document.querySelector('#status.your-turn')",
        timeout=timeout,
    )
    return page.query_selector("#scorepad") is None


def click_quadropolis_move(page: Any) -> None:
    page.click("button.architect >> nth=0")
    page.click("g.spot.legal >> nth=0")
    target = page.query_selector("g.cell.legal")
    if target is not None:
        target.click()
    elif page.query_selector("#take-nothing") is not None:
        page.click("#take-nothing")
    else:
        page.click("#discard")


def click_metropolys_move(page: Any, turn: int) -> None:
    can_bid = page.query_selector("g.field.legal") is not None
    if can_bid and (turn % 3 != 2 or page.query_selector("#pass") is None):
        page.click("g.field.legal >> nth=0")
        page.click("button.value >> nth=0")
    else:
        page.click("#pass")


def position(page: Any) -> int:
    """The number of moves the page's log covers."""
    return int(page.evaluate(LOG_POSITION))


def wait_position(page: Any, check: str) -> None:
    """Wait until the shown position satisfies ``check`` (e.g. ``"> 3"``, ``"=== 0"``)."""
    page.wait_for_function(f"() => {LOG_POSITION} {check}")


def play_until_end(page: Any, game: str, limit: int = 400) -> int:
    """Click legal moves until the game is over; returns how many moves were clicked."""
    clicks = 0
    while wait_turn_or_end(page):
        before = position(page)
        if game == "quadropolis":
            click_quadropolis_move(page)
        else:
            click_metropolys_move(page, clicks)
        clicks += 1
        assert clicks < limit
        page.wait_for_function(
            f"() => {LOG_POSITION} > {before} || document.querySelector('#scorepad')"
        )
    return clicks


def log_keys(page: Any) -> set[str]:
    """The event keys of the lines in the page's log."""
    keys = page.evaluate("[...document.querySelectorAll('#log li')].map((li) => li.dataset.key)")
    return set(keys)


def log_lines(page: Any) -> list[str]:
    """The lines of the page's log, as worded."""
    lines: list[str] = page.evaluate(
        "[...document.querySelectorAll('#log li')].map((li) => li.textContent)"
    )
    return lines


# -- the table tests: contexts, taps, keys, checks ------------------------------------------------


def new_context(
    browser: Any,
    width: int = 1366,
    height: int = 900,
    *,
    touch: bool = False,
    dark: bool = False,
) -> Any:
    """A browser context of one screen size (a touch screen: taps, a coarse pointer)."""
    return browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=touch,
        is_mobile=touch,
        color_scheme="dark" if dark else "light",
    )


def page_errors(page: Any) -> list[str]:
    """The page's uncaught errors and console errors, collected from now on."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def create_game(
    server: ServerProcess,
    game: str,
    mode: str,
    seats: list[dict[str, Any]],
    seed: int | None = None,
) -> dict[str, Any]:
    """A game made through the API: seats as {name, kind, level}; the answer has invites.
    A ``seed`` (allowed against bots) makes the deal the same on every run."""
    body: dict[str, Any] = {"game": game, "mode": mode, "seats": seats}
    if seed is not None:
        body["seed"] = seed
    made: dict[str, Any] = server.api("/api/games", body)
    return made


def tap(page: Any, selector: str) -> None:
    page.locator(selector).first.tap()


def confirm_if_asked(page: Any, act: Any) -> None:
    """Confirm the move (touch screens ask by default), with ``act`` (click or tap)."""
    if page.query_selector("#confirm-move") is not None:
        act("#confirm-move")


def quadropolis_move(page: Any, act: Any) -> None:
    """One move by pointer: ``act(selector)`` clicks or taps."""
    act("button.architect")
    act("g.spot.legal")
    if page.query_selector("#my-city g.cell.legal") is not None:
        act("#my-city g.cell.legal")
    elif page.query_selector("#take-nothing") is not None:
        act("#take-nothing")
    else:
        act("#discard")
    confirm_if_asked(page, act)


def metropolys_move(page: Any, act: Any, turn: int) -> None:
    """One move by pointer: a bid on the board or from the list of fields, or a pass."""
    can_bid = page.query_selector("g.field.legal") is not None
    if can_bid and (turn % 3 != 2 or page.query_selector("#pass") is None):
        if turn % 2 and page.query_selector("button.field-choice") is not None:
            act("button.field-choice")
        else:
            act("g.field.legal .field-disc")
        act("button.value")
    else:
        act("#pass")
    confirm_if_asked(page, act)


def focused(page: Any, selector: str) -> bool:
    return bool(page.evaluate("(sel) => !!document.activeElement?.matches(sel)", selector))


def tab_to(page: Any, selector: str, limit: int = 80) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(limit):
        if focused(page, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def arrow_to(page: Any, selector: str, keys: tuple[str, ...], limit: int = 30) -> None:
    """Move with the arrow keys (round ``keys``) until the focus matches ``selector``."""
    for i in range(limit):
        if focused(page, selector):
            return
        page.keyboard.press(keys[i % len(keys)])
    raise AssertionError(f"the arrows never reached {selector}")


def keyboard_quadropolis_move(page: Any) -> None:
    """One move with the keyboard only: architect, spot, square (or discard / nothing)."""
    tab_to(page, "button.architect")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement?.matches('#site .spot.legal')")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.activeElement?.matches('#my-city .cell.legal, #discard, #take-nothing')"
    )
    page.keyboard.press("Enter")
    if page.query_selector("#confirm-move") is not None:
        page.wait_for_function("() => document.activeElement?.id === 'confirm-move'")
        page.keyboard.press("Enter")


def keyboard_metropolys_move(page: Any, turn: int) -> None:
    """One move with the keyboard only: a field on the board and a value, or a pass."""
    can_bid = page.query_selector("g.field.legal") is not None
    if can_bid and (turn % 3 != 2 or page.query_selector("#pass") is None):
        tab_to(page, "#metro-board .field.legal")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement?.matches('button.value')")
        page.keyboard.press("Enter")
    else:
        tab_to(page, "#pass")
        page.keyboard.press("Enter")
    if page.query_selector("#confirm-move") is not None:
        page.wait_for_function("() => document.activeElement?.id === 'confirm-move'")
        page.keyboard.press("Enter")


def play_with(page: Any, move: Any, limit: int = 400) -> int:
    """Play ``move(page, turn)`` on each turn until the game is over; returns the moves made."""
    turns = 0
    while wait_turn_or_end(page):
        before = position(page)
        move(page, turns)
        turns += 1
        assert turns < limit
        page.wait_for_function(
            f"() => {LOG_POSITION} > {before} || document.querySelector('#scorepad')"
        )
    return turns


#: JavaScript: what sticks out of the page sideways, or of its box (text cut off).
OVERFLOW = """() => {
  const out = [];
  const W = document.documentElement.clientWidth;
  const page = document.documentElement.scrollWidth;
  if (page > W + 1) out.push(`page ${page} > ${W}`);
  const skip = (el) => el.closest(
    '.scroll-x, .log, svg, dialog:not([open]), [hidden], .visually-hidden, #tip');
  const texts = ['BUTTON', 'A', 'LABEL', 'SPAN', 'P', 'H2', 'H3', 'LI', 'TD', 'TH', 'STRONG',
    'SUMMARY'];
  for (const el of document.querySelectorAll('header *, main *, dialog[open] *')) {
    if (skip(el)) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const name = `${el.tagName}.${el.className}`;
    if (r.right > W + 1 || r.left < -1) {
      out.push(`${name} x ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    const cut = el.scrollWidth > el.clientWidth + 2 && el.clientWidth > 0;
    if (cut && getComputedStyle(el).overflowX === 'visible' && texts.includes(el.tagName)) {
      const text = el.textContent.slice(0, 30);
      out.push(`${name} text ${el.scrollWidth} > ${el.clientWidth}: ${text}`);
    }
  }
  return out;
}"""

#: JavaScript: the visible elements matching a selector smaller than a size.
SMALL = """([sel, least]) => [...document.querySelectorAll(sel)].flatMap((el) => {
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height || (r.width >= least && r.height >= least)) return [];
  return [`${el.tagName}#${el.id}.${el.getAttribute('class')} ${r.width}x${r.height}`];
})"""


def overflow(page: Any) -> list[str]:
    """Everything that sticks out (sideways scrolling, text wider than its box)."""
    found: list[str] = page.evaluate(OVERFLOW)
    return found


def small_targets(page: Any, selector: str, least: float = 44) -> list[str]:
    """The visible elements matching ``selector`` smaller than ``least`` CSS pixels."""
    found: list[str] = page.evaluate(SMALL, [selector, least])
    return found


def axe_problems(page: Any) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on the page."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    bad = []
    for v in results.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            targets = [", ".join(map(str, n["target"])) for n in v["nodes"][:5]]
            bad.append(f"{v['id']} ({v['impact']}): {v['help']} -> {targets}")
    return bad


def shoot(page: Any, folder: Path, name: str) -> None:
    """Save the whole page as ``folder/name.png`` (the ``shots`` fixture's folder)."""
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


# -- pages of a signed-in person ------------------------------------------------------------------
def open_page(context: Any, server: ServerProcess, route: str = "#/") -> tuple[Any, list[str]]:
    """A new page at ``route``, once the header knows who is signed in; and its errors."""
    page = context.new_page()
    errors = page_errors(page)
    page.goto(f"{server.base}/{route}")
    page.wait_for_selector("#account-slot > *")
    return page, errors


def go(page: Any, route: str, ready: str) -> None:
    """Follow ``route`` within the page (no reload) until ``ready`` shows."""
    page.evaluate("(route) => { location.hash = route; }", route)
    page.wait_for_selector(ready)


def sign_in(page: Any, name: str, password: str = PASSWORD) -> None:
    """Sign in through the page (lands on My games, the header naming ``name``)."""
    go(page, "#/signin", "#signin-form")
    page.fill("#signin-name", name)
    page.fill("#signin-password", password)
    page.click("#signin-submit")
    page.wait_for_selector("#my-title")
    page.wait_for_selector(f"#account-menu .account-name:text-is('{name}')")
