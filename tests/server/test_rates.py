"""The server's own rate limiter (polis.server.http.rates): the rates it reads, and moving
windows held to their definition (at most the amount of allowed hits in any period, a hit
refused only then) against a brute-force count, on a clock the tests move."""

from __future__ import annotations

from dataclasses import fields

import pytest
from hypothesis import given
from hypothesis import strategies as st

from polis.server.config import Limits
from polis.server.http.rates import Rate, Windows, parse_rate


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("30/second", Rate(30, 1.0)),
        ("60/10seconds", Rate(60, 10.0)),
        ("5 / 10 seconds", Rate(5, 10.0)),
        ("20/minute", Rate(20, 60.0)),
        ("20 per minute", Rate(20, 60.0)),
        ("3 per 2 hours", Rate(3, 7200.0)),
        ("100/Day", Rate(100, 86400.0)),
        ("0/second", Rate(0, 1.0)),
    ],
)
def test_rates_are_read_as_written(text: str, rate: Rate) -> None:
    assert parse_rate(text) == rate


@pytest.mark.parametrize(
    "text", ["", "lots", "30", "30/", "/second", "30/fortnight", "30/0seconds", "-1/second",
             "1.5/second", "30/secondss", "30/second;10/minute"],
)  # fmt: skip
def test_anything_else_is_not_a_rate(text: str) -> None:
    with pytest.raises(ValueError, match="not a rate"):
        parse_rate(text)


def test_every_default_limit_is_a_rate() -> None:
    rates = [getattr(Limits(), f.name) for f in fields(Limits) if f.name.endswith("_rate")]
    assert len(rates) == 5 and all(parse_rate(text).amount > 0 for text in rates)


def test_a_burst_is_cut_at_the_amount_until_the_period_has_passed() -> None:
    clock = Clock()
    windows = Windows(clock)
    rate = Rate(3, 10.0)
    assert [windows.hit(rate, "a") for _ in range(5)] == [True, True, True, False, False]
    assert windows.hit(rate, "b")  # another key counts on its own
    clock.now += 9.9
    assert not windows.hit(rate, "a")
    clock.now += 0.1  # the first three are a whole period old
    assert [windows.hit(rate, "a") for _ in range(4)] == [True, True, True, False]


def test_refused_hits_do_not_count() -> None:
    clock = Clock()
    windows = Windows(clock)
    rate = Rate(2, 1.0)
    assert windows.hit(rate, "a") and windows.hit(rate, "a")
    for _ in range(100):  # a client hammering while refused
        clock.now += 0.009
        assert not windows.hit(rate, "a")
    clock.now += 0.1  # a second after the allowed ones
    assert windows.hit(rate, "a")


def test_keys_are_joined_parts() -> None:
    windows = Windows(Clock())
    assert windows.hit(Rate(1, 1.0), "chat", "10.0.0.1")
    assert list(windows.storage) == ["chat/10.0.0.1"]
    assert windows.hit(Rate(1, 1.0), "message", "10.0.0.1")


def test_sweep_forgets_only_keys_with_no_hit_left_in_their_period() -> None:
    clock = Clock()
    windows = Windows(clock)
    windows.hit(Rate(5, 1.0), "short")
    windows.hit(Rate(5, 60.0), "long")
    clock.now += 2
    windows.hit(Rate(5, 1.0), "fresh")
    windows.sweep()
    assert sorted(windows.storage) == ["fresh", "long"]
    clock.now += 60
    windows.sweep()
    assert windows.storage == {}


@given(
    amount=st.integers(0, 6),
    seconds=st.sampled_from([0.5, 1.0, 10.0]),
    gaps=st.lists(st.floats(0, 2, allow_nan=False), max_size=60),
    sweeps=st.lists(st.booleans(), max_size=60),
)
def test_a_hit_is_allowed_exactly_when_fewer_than_the_amount_were_within_the_period(
    amount: int, seconds: float, gaps: list[float], sweeps: list[bool]
) -> None:
    clock = Clock()
    windows = Windows(clock)
    rate = Rate(amount, seconds)
    allowed: list[float] = []
    for i, gap in enumerate(gaps):
        clock.now += gap
        if i < len(sweeps) and sweeps[i]:
            windows.sweep()  # sweeping never changes an answer
        recent = [t for t in allowed if t > clock.now - seconds]
        assert windows.hit(rate, "k") == (len(recent) < amount)
        if len(recent) < amount:
            allowed.append(clock.now)
    for i, t in enumerate(allowed):  # the definition, read back
        assert sum(1 for u in allowed[i:] if u < t + seconds) <= amount
