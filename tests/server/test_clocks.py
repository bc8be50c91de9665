"""Clock arithmetic (:mod:`polis.server.table.clocks`): banks, increments, caps, deadlines."""

from __future__ import annotations

import pytest

from polis.server.table.clocks import Clock, TableClock, TimeControl


def test_a_realtime_bank_runs_for_the_seat_to_move_and_gets_its_increment() -> None:
    control = TimeControl.realtime(600, 10)
    clock = Clock.start(control, 3, now=1000.0, running=0)
    assert clock.deadline == 1600.0
    assert clock.left(0, 1250.0) == 350.0 and clock.left(1, 1250.0) == 600.0
    after = clock.moved(0, 1250.0, running=1)
    assert after.banks == (360.0, 600.0, 600.0)
    assert after.started == 1250.0 and after.running == 1 and after.deadline == 1850.0
    assert not after.expired(1849.9) and after.expired(1850.0)


def test_a_turn_based_bank_is_topped_up_by_one_turn_and_capped() -> None:
    day = 86400.0
    control = TimeControl.turn_based(day, 3 * day)
    clock = Clock.start(control, 2, now=0.0, running=0)
    assert clock.banks == (day, day)
    quick = clock.moved(0, 3600.0, running=1)
    assert quick.banks[0] == 2 * day - 3600.0
    fast = Clock(control, (2.9 * day, day), 0.0, 0).moved(0, 60.0, running=1)
    assert fast.banks[0] == 3 * day  # never more than the cap


def test_only_a_running_seat_is_charged_and_a_stopped_clock_keeps_what_was_left() -> None:
    control = TimeControl.realtime(100, 5)
    bot_turn = Clock(control, (100.0, 40.0), 0.0, None)
    assert bot_turn.deadline is None and not bot_turn.expired(10_000.0)
    assert bot_turn.moved(1, 500.0, running=0).banks == (100.0, 40.0)  # a bot is never charged
    late = Clock(control, (100.0, 40.0), 0.0, 1)
    assert late.left(1, 70.0) == -30.0
    stopped = late.stopped(70.0)
    assert stopped.banks == (100.0, 0.0) and stopped.running is None
    assert stopped.reclaimed(1).banks == (100.0, 5.0)  # back with one increment


@pytest.mark.parametrize("kind", ["realtime", "turn"])
def test_time_controls_survive_json(kind: str) -> None:
    control = TimeControl.realtime(300, 2) if kind == "realtime" else TimeControl.turn_based(60)
    assert TimeControl.from_json(control.to_json()) == control


def test_a_new_table_starts_every_bank_full() -> None:
    rules = TableClock(TimeControl.realtime(300, 2).to_json(), "easy", None)
    started = rules.started(2, 500.0, running=1)
    assert started.banks == [300.0, 300.0] and started.turn_started == 500.0
    assert started.deadline == 800.0 and started.rules() == rules
    assert TableClock(None, None, 30.0).started(2, 1.0, 0).banks is None
    assert not TableClock().chosen
