"""tests/waiting.py: the one helper every polling wait of the tests goes through."""

from __future__ import annotations

import asyncio
import itertools
import time

import pytest

from waiting import eventually, eventually_async


def test_eventually_returns_the_first_true_answer() -> None:
    counter = itertools.count()
    assert eventually(lambda: next(counter) >= 3 and "done", interval=0) == "done"


def test_an_assertion_in_the_check_counts_as_not_yet() -> None:
    tries = itertools.count()

    def check() -> bool:
        assert next(tries) >= 2, "not yet"
        return True

    assert eventually(check, interval=0) is True


def test_it_fails_with_its_words_and_the_last_assertion_past_the_timeout() -> None:
    started = time.monotonic()
    with pytest.raises(AssertionError, match="the room stayed") as failed:

        def check() -> bool:
            raise AssertionError("position 3")

        eventually(check, lambda: "the room stayed", timeout=0.1)
    assert 0.1 <= time.monotonic() - started < 5
    assert str(failed.value.__cause__) == "position 3"


def test_any_other_error_goes_through_at_once() -> None:
    def check() -> bool:
        raise RuntimeError("server died")

    started = time.monotonic()
    with pytest.raises(RuntimeError, match="server died"):
        eventually(check, timeout=30)
    assert time.monotonic() - started < 5


def test_the_async_form_lets_other_tasks_run_while_it_waits() -> None:
    async def run() -> None:
        done: list[int] = []

        async def later() -> None:
            await asyncio.sleep(0.05)
            done.append(1)

        task = asyncio.ensure_future(later())
        assert await eventually_async(lambda: done) == [1]
        await task
        with pytest.raises(AssertionError, match="never"):
            await eventually_async(lambda: False, "never", timeout=0.05)

    asyncio.run(run())


def test_the_async_form_awaits_a_check_that_is_a_coroutine() -> None:
    async def run() -> None:
        answers = iter([0, 0, 2])

        async def asked() -> int:
            await asyncio.sleep(0)
            return next(answers)

        assert await eventually_async(asked, interval=0) == 2

    asyncio.run(run())
