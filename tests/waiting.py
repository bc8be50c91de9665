"""Waiting in tests: one way to wait for something to become true, and none to wait for
something *not* to happen.

A test that needs a moment to pass before it checks that something did not happen (no second
message, no replay, no extra worker) must not sleep a fixed time and hope: on a slow machine
the sleep is too short and the test passes whether or not the code works. It waits instead for
a positive sign that the moment has passed — a later message, a counter of background rounds,
a log line, an answer to a request sent after the first — with :func:`eventually`, and then
checks.

``from waiting import eventually`` (tests/ is on ``sys.path``, see tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar, cast

T = TypeVar("T")

#: Seconds between two looks: short enough not to slow a test, long enough not to spin.
INTERVAL = 0.02


def eventually(
    check: Callable[[], T],
    what: str | Callable[[], str] = "the condition never held",
    *,
    timeout: float = 10.0,
    interval: float = INTERVAL,
) -> T:
    """Call ``check`` until it returns something true (and return that), at most ``timeout``
    seconds; then fail with ``what`` (a callable is asked only then, to show the last state).

    ``check`` may also assert: an ``AssertionError`` counts as "not yet", and the last one is
    the cause of the failure. Any other exception goes through at once (a server that died
    need not be waited for)."""
    deadline = time.monotonic() + timeout
    while True:
        last: AssertionError | None = None
        try:
            value = check()
        except AssertionError as exc:
            last = exc
        else:
            if value:
                return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"{_say(what)} (waited {timeout:g} s)") from last
        time.sleep(interval)


async def eventually_async(
    check: Callable[[], T | Awaitable[T]],
    what: str | Callable[[], str] = "the condition never held",
    *,
    timeout: float = 10.0,
    interval: float = INTERVAL,
) -> T:
    """:func:`eventually` inside an event loop: waits with ``asyncio.sleep`` so the tasks
    being waited for run meanwhile; ``check`` may be a coroutine function (a question to a
    server)."""
    deadline = time.monotonic() + timeout
    while True:
        last: AssertionError | None = None
        try:
            answer = check()
            value = cast(T, await answer) if inspect.isawaitable(answer) else answer
        except AssertionError as exc:
            last = exc
        else:
            if value:
                return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"{_say(what)} (waited {timeout:g} s)") from last
        await asyncio.sleep(interval)


def _say(what: str | Callable[[], str]) -> str:
    return what if isinstance(what, str) else what()
