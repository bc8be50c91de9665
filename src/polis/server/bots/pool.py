"""Where bots think: worker processes (or Ray actors), never the web process.

A searching bot thinks for seconds; in the web process it would hold the interpreter lock
that every table's moves need. Here the web process only sends a seat's view and legal moves
to a worker (:mod:`polis.server.bots.worker`) and awaits the answer without blocking, so a
table's round trip does not depend on how many bots think elsewhere; the workers run at a
lower priority, so when the processors are busy the tables are served first.

Each bot seat has a home worker (its agent, with its search tree, lives there between its
moves); a worker thinks for one seat at a time, seats wait their turn in their home's queue.
A decision has a time limit counted from when the worker starts on it: past it the worker is
killed and started again, and so is a worker that crashes; the caller gets
:class:`BotTimeout` / :class:`BotFailed` and plays a fallback move, so the game continues.

Other thinking from a seat's view (a hint, a post-game review's moves) goes the same way
(:meth:`WorkerPool.compute`), with a time limit, but it comes after every bot: a hint is a
search of seconds, and a bot waiting behind a queue of them would keep its table waiting
for as long. So such work waits in one queue of the pool, and a worker takes from it only
when no bot decision waits for it; at most :attr:`WorkerPool.work_at_once` of it runs at
once (one worker fewer than the pool has, when it has two or more), so a bot always finds
a worker free of it. A bot whose home worker is busy with such work is served by another
worker that is not, which becomes its home (the agent is sent there again).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import pickle
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Literal, Protocol, TypeVar

from polis.bots import Agent, Budget, agent_seat
from polis.core.match import Turn
from polis.core.moves import Move, MoveList
from polis.core.protocol import Game
from polis.core.view import View
from polis.server.bots.worker import Effort, Key, ViewTurn, effort

log = logging.getLogger("polis.server")

T = TypeVar("T")


class BotFailed(Exception):
    """The bot could not give a move (its worker crashed twice, or the agent raised)."""


class BotTimeout(BotFailed):
    """The bot did not answer within its time limit (its worker was restarted)."""


class _Crashed(Exception):
    """A worker crashed mid-request (it has been started again)."""


@dataclass(frozen=True, slots=True)
class BotJob:
    """One decision: seat ``key`` = (game id, seat) to move, from what the seat may see."""

    key: Key
    #: Makes the seat's agent and budget (called when a worker does not have the agent).
    make: Callable[[], tuple[Agent, Budget]]
    game: Game
    view: View
    legal: MoveList[Move]
    #: Seconds the worker may think before it counts as stuck.
    limit: float


@dataclass(frozen=True, slots=True)
class Work:
    """A call of ``function(*args)`` in a worker (a module-level function: it is pickled by
    name), answered within ``limit`` seconds of the worker starting on it."""

    function: Callable[..., Any]
    args: tuple[Any, ...]
    limit: float


class BotPool(Protocol):
    """Anything that runs bot decisions away from the event loop."""

    async def decide(self, job: BotJob) -> Move: ...

    async def compute(self, function: Callable[..., T], args: tuple[Any, ...], limit: float) -> T:
        """``function(*args)`` in a worker; BotTimeout / BotFailed when it gives no answer."""
        ...

    def forget(self, key: Key) -> None: ...

    async def close(self) -> None: ...


class Worker(Protocol):
    """One place that holds agents and answers requests (a process or a Ray actor)."""

    alive: bool

    async def start(self) -> None: ...

    async def call(self, request: tuple[Any, ...], limit: float) -> tuple[Any, ...]: ...

    def tell(self, request: tuple[Any, ...]) -> None: ...

    def kill(self) -> None: ...


class _Slot:
    """A worker, the keys whose agent it holds or whose home it is, the decisions waiting
    for it, and what it does now."""

    def __init__(self, worker: Worker) -> None:
        self.worker = worker
        self.agents: set[Key] = set()
        self.homes: set[Key] = set()
        self.bots: deque[tuple[BotJob, asyncio.Future[Any]]] = deque()
        #: None (idle), a bot's decision or :class:`Work`.
        self.doing: Literal["bot", "work"] | None = None

    @property
    def load(self) -> int:
        return len(self.bots) + (self.doing is not None)


class WorkerPool:
    """Bot decisions spread over workers, each seat kept on its home worker; other work
    (:meth:`compute`) in the time the bots leave."""

    def __init__(self, make_worker: Callable[[], Worker], size: int) -> None:
        self._make_worker = make_worker
        self._slots = [_Slot(make_worker()) for _ in range(size)]
        self._home: dict[Key, _Slot] = {}
        self._work: deque[tuple[Work, asyncio.Future[Any]]] = deque()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        #: Calls of :meth:`compute` run at once at most: one worker is always left to the
        #: bots (when there are two or more).
        self.work_at_once = max(1, size - 1)
        #: Decisions answered, those served away from their home (its worker was busy with
        #: other work), fallbacks (timeouts, failures) and worker restarts: for tests and the
        #: log; and what the answered decisions cost (:func:`record_effort`): search
        #: iterations, seconds of CPU time, decisions cut by the wall-clock cap.
        self.stats: dict[str, float] = {
            "moves": 0,
            "elsewhere": 0,
            "timeouts": 0,
            "failures": 0,
            "restarts": 0,
            "iterations": 0,
            "cpu_seconds": 0.0,
            "capped": 0,
        }

    @property
    def working(self) -> int:
        """Calls of :meth:`compute` being run now."""
        return sum(slot.doing == "work" for slot in self._slots)

    async def decide(self, job: BotJob) -> Move:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Move] = loop.create_future()
        self._slot_for(job.key).bots.append((job, future))
        self._kick()
        return await future

    async def compute(self, function: Callable[..., T], args: tuple[Any, ...], limit: float) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._work.append((Work(function, args, limit), future))
        self._kick()
        return await future

    def forget(self, key: Key) -> None:
        slot = self._home.pop(key, None)
        if slot is not None:
            slot.homes.discard(key)
        for held in self._slots:
            self._drop_agent(held, key)

    async def close(self) -> None:
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        for slot in self._slots:
            slot.worker.kill()

    def _slot_for(self, key: Key) -> _Slot:
        """Where ``key`` decides: its home, unless that worker runs other work and another
        does not (a bot never waits behind a hint if it need not): that one, its new home."""
        home = self._home.get(key)
        if home is not None and home.doing != "work":
            return home
        best = min(self._slots, key=lambda s: (s.doing == "work", s.load, len(s.homes)))
        if home is not None and best.doing == "work":
            return home  # every worker runs other work (a pool of one): wait at home
        if home is not None:
            home.homes.discard(key)
            self._drop_agent(home, key)  # (its tree would be stale when it came back)
            self.stats["elsewhere"] += 1
        self._home[key] = best
        best.homes.add(key)
        return best

    def _drop_agent(self, slot: _Slot, key: Key) -> None:
        if key in slot.agents:
            slot.agents.discard(key)
            if slot.worker.alive:
                slot.worker.tell(("forget", key))

    def _kick(self) -> None:
        """Set every idle worker that has something to do to it (the workers that are home
        to fewest bots take the other work first)."""
        if self._closed:
            return
        for slot in sorted(self._slots, key=lambda s: len(s.homes)):
            if slot.doing is None:
                job = self._next(slot)
                if job is not None:
                    task = asyncio.get_running_loop().create_task(self._serve(slot, *job))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)

    def _next(self, slot: _Slot) -> tuple[BotJob | Work, asyncio.Future[Any]] | None:
        """What idle ``slot`` does next, marked as its doing: its bots first, then other work
        while less than :attr:`work_at_once` of it runs."""
        while slot.bots:
            job, future = slot.bots.popleft()
            if not future.done():  # (done: the room gave up waiting)
                slot.doing = "bot"
                return job, future
        while self._work and self.working < self.work_at_once:
            work, done = self._work.popleft()
            if not done.done():
                slot.doing = "work"
                return work, done
        return None

    async def _serve(self, slot: _Slot, job: BotJob | Work, future: asyncio.Future[Any]) -> None:
        try:
            if isinstance(job, Work):
                answer = await self._work_on(slot, job)
            else:
                answer = await self._run(slot, job)
                self.stats["moves"] += 1
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as exc:
            if not future.done():
                future.set_exception(exc)
        else:
            if not future.done():
                future.set_result(answer)
        finally:
            slot.doing = None
            self._kick()

    async def _restart(self, slot: _Slot, why: str) -> None:
        log.warning("bot worker restarted: %s", why)
        self.stats["restarts"] += 1
        slot.worker.kill()
        slot.agents.clear()
        slot.worker = self._make_worker()

    async def _ask(self, slot: _Slot, request: tuple[Any, ...], limit: float, doing: str) -> Any:
        """The worker's answer to ``request``; past ``limit`` seconds, or when it crashes, the
        worker is started again and :class:`BotTimeout` / :class:`_Crashed` raised."""
        try:
            return await slot.worker.call(request, limit)
        except TimeoutError:
            self.stats["timeouts"] += 1
            await self._restart(slot, f"{doing} longer than {limit:.1f} s")
            raise BotTimeout(f"no answer within {limit:.1f} s") from None
        except (EOFError, OSError, BotFailed) as exc:
            await self._restart(slot, f"it crashed ({type(exc).__name__}: {exc})")
            raise _Crashed from None

    async def _run(self, slot: _Slot, job: BotJob) -> Move:
        for attempt in range(2):
            if not slot.worker.alive:
                await slot.worker.start()
            blob = None if job.key in slot.agents else pickle.dumps(job.make())
            request = ("decide", job.key, blob, job.game, job.view, job.legal)
            try:
                answer = await self._ask(slot, request, job.limit, f"{job.key} thought")
            except _Crashed:
                if attempt == 0:
                    continue
                self.stats["failures"] += 1
                raise BotFailed("the bot's worker crashed twice") from None
            slot.agents.add(job.key)
            if answer[0] == "move":
                move: Move = answer[1]
                record_effort(self.stats, job.key, answer[2] if len(answer) > 2 else None)
                return move
            slot.agents.discard(job.key)
            if answer[0] == "missing":
                continue
            log.warning("bot %s failed: %s", job.key, answer[1])
            if attempt == 1:
                self.stats["failures"] += 1
                raise BotFailed(str(answer[1]))
        raise BotFailed("the bot gave no move")  # pragma: no cover - two 'missing' answers

    async def _work_on(self, slot: _Slot, job: Work) -> Any:
        if not slot.worker.alive:
            await slot.worker.start()
        try:
            request = ("call", job.function, job.args)
            answer = await self._ask(slot, request, job.limit, "a call ran")
        except _Crashed:
            raise BotFailed("the worker crashed") from None
        if answer[0] != "done":
            raise BotFailed(str(answer[1]))
        return answer[1]


def record_effort(stats: dict[str, float], key: Key, effort: Effort | None) -> None:
    """Add a decision's effort (iterations, CPU seconds, cap) to a pool's ``stats`` and log it
    (debug): how much a bot searched, which its time budget alone does not say."""
    if effort is None:
        return
    for name in ("iterations", "cpu_seconds", "capped"):
        stats[name] += effort[name]
    log.debug(
        "bot %s moved after %d iterations in %.2f s of CPU%s",
        key,
        effort["iterations"],
        effort["cpu_seconds"],
        " (cut by the wall-clock cap)" if effort["capped"] else "",
    )


# -- worker processes --------------------------------------------------------------------------


def _context() -> Any:
    """Fork from a small server process that has the bots imported and the games warmed
    (fast restarts, and no copy of the web process's threads and sockets)."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["polis.server.bots.worker", "polis.server.bots.warm"])
    return ctx


class ProcessWorker:
    """A worker process, talked to over a pipe."""

    def __init__(self, nice: int) -> None:
        self.nice = nice
        self.alive = False
        self._process: Any = None
        self._conn: Connection | None = None

    async def start(self) -> None:
        await asyncio.to_thread(self._start)

    def _start(self) -> None:
        from polis.server.bots.worker import worker_main

        ctx = _context()
        parent, child = ctx.Pipe()
        process = ctx.Process(
            target=worker_main, args=(child, self.nice), name="polis-bot", daemon=True
        )
        process.start()
        child.close()
        self._process, self._conn = process, parent
        self.alive = True

    async def call(self, request: tuple[Any, ...], limit: float) -> tuple[Any, ...]:
        conn = self._conn
        if conn is None:
            raise EOFError("the worker is not running")
        conn.send(request)
        async with asyncio.timeout(limit):
            await _readable(conn)
        answer: tuple[Any, ...] = conn.recv()
        return answer

    def tell(self, request: tuple[Any, ...]) -> None:
        if self._conn is not None:
            with contextlib.suppress(OSError):
                self._conn.send(request)

    def kill(self) -> None:
        self.alive = False
        if self._process is not None and self._process.is_alive():
            self._process.kill()
        if self._conn is not None:
            self._conn.close()
        self._conn = None
        process, self._process = self._process, None
        if process is not None:
            # reaped in a thread: never wait on the event loop
            loop = _running_loop()
            if loop is not None:
                loop.run_in_executor(None, process.join, 5)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


async def _readable(conn: Connection) -> None:
    """Wait until ``conn`` has a message (or its end: the worker died)."""
    if conn.poll():
        return
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()
    fd = conn.fileno()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(fd, wake)
    try:
        await ready
    finally:
        loop.remove_reader(fd)


def process_pool(workers: int, nice: int) -> WorkerPool:
    """Bots in ``workers`` worker processes of this server."""
    return WorkerPool(lambda: ProcessWorker(nice), workers)


# -- Ray ---------------------------------------------------------------------------------------


class RayWorker:
    """A Ray actor holding agents (the same requests as a worker process)."""

    def __init__(self, nice: int) -> None:
        self.nice = nice
        self.alive = False
        self._actor: Any = None

    async def start(self) -> None:
        self._actor = await asyncio.to_thread(_ray_actor, self.nice)
        self.alive = True

    async def call(self, request: tuple[Any, ...], limit: float) -> tuple[Any, ...]:
        import ray

        if self._actor is None:
            raise EOFError("the actor is not running")
        try:
            async with asyncio.timeout(limit):
                answer: tuple[Any, ...] = await self._actor.handle.remote(request)
        except ray.exceptions.RayError as exc:
            raise BotFailed(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc
        return answer

    def tell(self, request: tuple[Any, ...]) -> None:
        if self._actor is not None:
            self._actor.handle.remote(request)

    def kill(self) -> None:
        self.alive = False
        actor, self._actor = self._actor, None
        if actor is not None:
            import ray

            with contextlib.suppress(Exception):
                ray.kill(actor)


def _ray_actor(nice: int) -> Any:
    import ray

    from polis.server.bots.worker import BotHost, calm, warm

    class BotActor:
        def __init__(self, nice: int) -> None:
            calm(nice)
            warm()
            self.host = BotHost()

        def handle(self, request: tuple[Any, ...]) -> tuple[Any, ...] | None:
            return self.host.handle(request)

    return ray.remote(num_cpus=1)(BotActor).remote(nice)


def ray_pool(workers: int, nice: int, address: str | None) -> WorkerPool:
    """Bots in ``workers`` actors of a Ray cluster (``address``; a local one when None)."""
    import ray

    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    return WorkerPool(lambda: RayWorker(nice), workers)


# -- in this process (embedding, benchmarks of the move path) ----------------------------------


class ThreadPool:
    """Bots in threads of this process: for tools that embed a hub without worker processes
    (a benchmark of the move path). A stuck bot cannot be stopped here, only not waited for."""

    def __init__(self, executor: Executor) -> None:
        self.executor = executor
        self._seats: dict[Key, Any] = {}
        self._stats: dict[Key, Any] = {}
        #: What the decisions cost (as :attr:`WorkerPool.stats`).
        self.stats: dict[str, float] = {"iterations": 0, "cpu_seconds": 0.0, "capped": 0}

    async def decide(self, job: BotJob) -> Move:
        seat = self._seats.get(job.key)
        if seat is None:
            agent, budget = job.make()
            seat = self._seats[job.key] = agent_seat(agent, budget, job.game)
            self._stats[job.key] = getattr(agent, "stats", None)
        turn: Turn = ViewTurn(job.view, job.legal)
        before = effort(self._stats.get(job.key), None)
        try:
            move: Move = await self.compute(seat, (turn,), job.limit)
        except BotTimeout:
            raise
        except BotFailed:
            self._seats.pop(job.key, None)  # the agent raised: a fresh one next time
            raise
        record_effort(self.stats, job.key, effort(self._stats.get(job.key), before))
        return move

    async def compute(self, function: Callable[..., T], args: tuple[Any, ...], limit: float) -> T:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(limit):
                answer: T = await loop.run_in_executor(self.executor, lambda: function(*args))
        except TimeoutError:
            raise BotTimeout(f"no answer within {limit:.1f} s") from None
        except Exception as exc:
            raise BotFailed(f"{type(exc).__name__}: {exc}") from exc
        return answer

    def forget(self, key: Key) -> None:
        self._seats.pop(key, None)
        self._stats.pop(key, None)

    async def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
