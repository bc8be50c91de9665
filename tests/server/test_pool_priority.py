"""The worker pool serves bot decisions before hints and reviews (:class:`Work`): a bot job
goes ahead of queued work, a bot whose home worker is busy with work is served by another
worker, and work never takes every worker. Workers here are fakes in this process, whose
calls of work wait for an event the test sets."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from polis.core.moves import Move, MoveList
from polis.core.protocol import Game
from polis.core.view import View
from polis.server.bots.pool import BotJob, WorkerPool
from polis.server.bots.worker import Key
from waiting import eventually_async


class FakeWorker:
    """Answers a decision at once (with its first legal move) and a call once the call's
    awaitable ends; every request is written in the shared ``log``."""

    def __init__(self, index: int, log: list[tuple[Any, ...]]) -> None:
        self.index = index
        self.log = log
        self.alive = False
        self.agents: set[Key] = set()

    async def start(self) -> None:
        self.alive = True

    async def call(self, request: tuple[Any, ...], limit: float) -> tuple[Any, ...]:
        if request[0] == "decide":
            _kind, key, blob, _game, _view, legal = request
            if blob is None and key not in self.agents:
                return ("missing",)
            self.agents.add(key)
            self.log.append(("decide", self.index, key, blob is not None))
            return ("move", legal[0])
        _kind, function, args = request
        self.log.append(("call", self.index, args[-1]))
        return ("done", await function(*args))

    def tell(self, request: tuple[Any, ...]) -> None:
        self.log.append(("tell", self.index, *request))
        if request[0] == "forget":
            self.agents.discard(request[1])

    def kill(self) -> None:
        self.alive = False


def fake_pool(size: int) -> tuple[WorkerPool, list[tuple[Any, ...]]]:
    log: list[tuple[Any, ...]] = []
    made: list[FakeWorker] = []

    def make() -> FakeWorker:
        made.append(FakeWorker(len(made), log))
        return made[-1]

    return WorkerPool(make, size), log


#: The fake workers' move (every decision's only legal move).
MOVE = cast(Move, "m")


def job(key: Key) -> BotJob:
    legal = cast(MoveList[Move], [MOVE])
    return BotJob(
        key=key,
        make=lambda: cast(Any, ("agent", key)),
        game=cast(Game, None),
        view=cast(View, None),
        legal=legal,
        limit=30.0,
    )


async def hold(gate: asyncio.Event, name: str) -> str:
    """Work that lasts until ``gate`` is set (run by the fake worker, in this process)."""
    await gate.wait()
    return name


async def work(pool: WorkerPool, gate: asyncio.Event, name: str) -> str:
    """:func:`hold` as the pool's work (the fake worker awaits it): ``name`` once ``gate``
    is set."""
    done: Any = await pool.compute(hold, (gate, name), 30.0)
    return cast(str, done)


def started(log: list[tuple[Any, ...]], name: str) -> bool:
    return any(entry[0] == "call" and entry[2] == name for entry in log)


def test_a_bot_decision_goes_before_queued_work() -> None:
    async def run() -> None:
        pool, log = fake_pool(1)
        gate, open_gate = asyncio.Event(), asyncio.Event()
        open_gate.set()
        first = asyncio.ensure_future(work(pool, gate, "first"))
        await eventually_async(lambda: started(log, "first"))
        second = asyncio.ensure_future(work(pool, open_gate, "second"))
        await asyncio.sleep(0)  # (queued behind the first)
        bot = asyncio.ensure_future(pool.decide(job(("g", 0))))
        await asyncio.sleep(0)
        gate.set()
        answers = await asyncio.wait_for(asyncio.gather(first, second, bot), 10)
        assert list(answers) == ["first", "second", MOVE]
        order = [entry[2] for entry in log if entry[0] in ("call", "decide")]
        assert order == ["first", ("g", 0), "second"]
        assert pool.stats["elsewhere"] == 0  # (no other worker: it waited at home)
        await pool.close()

    asyncio.run(run())


def test_a_bot_whose_home_runs_work_is_served_by_another_worker() -> None:
    async def run() -> None:
        pool, log = fake_pool(2)
        home, other = ("g", 0), ("h", 0)
        assert await pool.decide(job(home)) == MOVE  # its home: worker 0
        assert await pool.decide(job(other)) == MOVE  # worker 1
        assert [entry[1] for entry in log] == [0, 1]
        gate = asyncio.Event()
        hint = asyncio.ensure_future(work(pool, gate, "hint"))
        await eventually_async(lambda: started(log, "hint"))
        assert log[-1] == ("call", 0, "hint")  # on the bot's home, the worker it prefers
        # the bot does not wait for the hint: worker 1 takes it (and the agent is sent there)
        assert await asyncio.wait_for(pool.decide(job(home)), 5) == MOVE
        assert not gate.is_set() and not hint.done()
        assert ("decide", 1, home, True) in log and ("tell", 0, "forget", home) in log
        assert pool.stats["elsewhere"] == 1
        gate.set()
        assert await hint == "hint"
        # worker 1 is its home now: its next decision goes there, the agent kept
        assert await pool.decide(job(home)) == MOVE
        assert log[len(log) - 1] == ("decide", 1, home, False)
        await pool.close()

    asyncio.run(run())


def test_work_always_leaves_a_worker_to_the_bots() -> None:
    async def run() -> None:
        pool, log = fake_pool(2)
        gates = [asyncio.Event(), asyncio.Event()]
        hints = [
            asyncio.ensure_future(work(pool, gate, f"hint {i}")) for i, gate in enumerate(gates)
        ]
        await eventually_async(lambda: started(log, "hint 0"))
        # a new bot (no home yet) and one that already has its home are both served at once
        assert await asyncio.wait_for(pool.decide(job(("g", 1))), 5) == MOVE
        assert await asyncio.wait_for(pool.decide(job(("g", 1))), 5) == MOVE
        assert not any(gate.is_set() for gate in gates) and not any(h.done() for h in hints)
        assert pool.working == 1 and not started(log, "hint 1")
        gates[0].set()
        await eventually_async(lambda: started(log, "hint 1"))  # the queued one takes its turn
        assert pool.working == 1
        gates[1].set()
        assert await asyncio.gather(*hints) == ["hint 0", "hint 1"]
        assert pool.working == 0
        await pool.close()

    asyncio.run(run())


@pytest.mark.parametrize(("size", "at_once"), [(1, 1), (2, 1), (3, 2), (8, 7)])
def test_work_at_once_is_one_less_than_the_workers(size: int, at_once: int) -> None:
    pool, _log = fake_pool(size)
    assert pool.work_at_once == at_once
