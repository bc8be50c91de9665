"""Load on the web server: N tables of people playing over WebSockets, with and without bots,
on SQLite and PostgreSQL, with one or several ``polis serve`` processes, under a connection
flood or beside a spectator that never reads. A script that prints figures.

Each table is two people (two WebSockets from one loopback address of its own, 127.x.y.z,
as two people at one table would be) playing Quadropolis Classic with random legal moves,
either one move per ``--pace`` seconds per table or flat out (``--pace 0``); a finished game
is followed by a new one. The round trip of a move is the time from sending it to receiving
the state that includes it, on the mover's socket. Bot tables are a person against a
``hard`` bot, the person answering at once, so the bot is thinking nearly all the time.
With several processes the games' WebSockets go to the process chosen by a hash of the game
id (what the deployment's proxy does), games are created round-robin.

Prints, per configuration: moves accepted per second (all tables), the round trip's p50,
p95, p99 and maximum, the peak memory of the web processes and of the bot workers, and what
else used the processors meanwhile. ``--preset all`` runs the configurations of issue 15:

* ``people``: 200 tables, a move per table every second, one process, SQLite;
* ``bots``: the same while 5 hard bots think in other tables;
* ``pg1`` / ``pg2``: 100 tables flat out on PostgreSQL, one process, then two with Redis;
* ``flood``: ``people`` while 1,000 connections (from 1,000 addresses) open on one table;
* ``stalled``: ``people`` while a spectator that never reads sends 2,000 moves to one table.

PostgreSQL comes from ``--pg-url`` or ``POLIS_TEST_PG_URL`` (a role that may create
databases: each run makes a fresh one and drops it); Redis is a throw-away ``redis-server``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import re
import socket
import statistics
import sys
import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx
import uvloop
from websockets.asyncio.client import ClientConnection, connect

import bench_args
from loadkit import (
    Beside,
    Memory,
    Server,
    busy_seconds,
    children,
    postgres_database,
    redis_server,
    servers,
)

GAME, MODE = "quadropolis", "classic"


@dataclass(frozen=True)
class Config:
    name: str
    tables: int = 200
    pace: float = 1.0
    processes: int = 1
    db: str = "sqlite"
    bot_tables: int = 0
    flood: int = 0
    #: Flood connections per source address (1: every connection from its own address).
    flood_per_address: int = 1
    stalled: int = 0
    duration: float = 60.0
    warmup: float = 10.0
    bot_workers: int = 2
    limits: str = ""


PRESETS = {
    "people": Config("people: 200 tables x 2 people, 1 move/s per table, 1 process, SQLite"),
    "bots": Config("bots: the same + 5 hard bots thinking in other tables", bot_tables=5),
    "pg1": Config(
        "pg1: 100 tables flat out, 1 process, PostgreSQL",
        tables=100,
        pace=0.0,
        db="postgresql",
        duration=30,
        warmup=5,
        limits="message_rate=2000/second",
    ),
    "pg2": Config(
        "pg2: 100 tables flat out, 2 processes, PostgreSQL + Redis",
        tables=100,
        pace=0.0,
        db="postgresql",
        processes=2,
        duration=30,
        warmup=5,
        limits="message_rate=2000/second",
    ),
    "flood": Config("flood: people + 1,000 connections on one table", flood=1000),
    "stalled": Config("stalled: people + a spectator that never reads (2,000 moves)", stalled=1),
}


def address(index: int) -> str:
    """A loopback address of its own for table ``index`` (127.0.0.0/8 is all loopback)."""
    return f"127.{10 + index // 62500}.{(index // 250) % 250 + 1}.{index % 250 + 1}"


@dataclass
class Results:
    rtts: list[float] = field(default_factory=list)
    #: Round trips on the table the flood or the stalled spectator targets.
    target_rtts: list[float] = field(default_factory=list)
    bot_replies: list[float] = field(default_factory=list)
    moves: int = 0
    problems: Counter[str] = field(default_factory=Counter)
    #: How late the client's event loop woke from 10 ms sleeps (seconds).
    client_lag: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class Run:
    """One configuration being played."""

    def __init__(self, config: Config, servers_: list[Server]) -> None:
        self.config = config
        self.servers = servers_
        self.results = Results()
        self.measuring = False
        self.stop = False
        self.target_game: str | None = None
        self.target_ready = asyncio.Event()

    def ws_server(self, game_id: str) -> Server:
        return self.servers[zlib.crc32(game_id.encode()) % len(self.servers)]

    def record(self, rtt: float, table: int) -> None:
        if self.measuring:
            self.results.rtts.append(rtt)
            self.results.moves += 1
            if table == 0:
                self.results.target_rtts.append(rtt)


#: The head of a state message's body, after its log (the server writes these keys in order).
HEAD = re.compile(r'"position":(\d+),"current_player":(-?\d+),"finished":(true|false)')


def read_state(text: str) -> dict[str, Any] | None:
    """What a player needs of a state message (position, who moves, over, legal moves),
    read without decoding the whole message: the client's cost per message stays small next
    to the server's, as a browser's would be on a machine of its own."""
    if not text.startswith('{"log":'):
        return None
    end = text.find('],"type":"state",')
    if end < 0:
        return None
    head = HEAD.search(text, end)
    if head is None:
        return None
    start = text.rfind('"legal":[')
    stop = text.index("]", start)
    return {
        "position": int(head.group(1)),
        "current_player": int(head.group(2)),
        "finished": head.group(3) == "true",
        "legal": json.loads(text[start + 8 : stop + 1]),
    }


class Seat:
    """One player's WebSocket: the latest state it was sent, and who waits for which position."""

    def __init__(self, ws: ClientConnection, run: Run) -> None:
        self.ws = ws
        self.run = run
        self.state: dict[str, Any] = {}
        self.position = -1
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, run: Run, game_id: str, token: str | None, source: str) -> Seat:
        server = run.ws_server(game_id)
        ws = await connect(
            f"{server.ws}/ws/{game_id}",
            compression=None,
            open_timeout=30,
            ping_interval=None,
            local_addr=(source, 0),
            max_size=2**22,
        )
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seat = cls(ws, run)
        await seat.at(0, exact=False)
        return seat

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                text = raw if isinstance(raw, str) else raw.decode()
                state = read_state(text)
                if state is not None:
                    self.state = state
                    self.position = state["position"]
                    self._wake()
                    continue
                msg = json.loads(text)
                if msg.get("type") == "error":
                    self.run.results.problems[msg.get("code", "error")] += 1
        except Exception:  # the connection ended; waiters time out
            pass
        finally:
            self.position = 10**9
            self._wake()

    def _wake(self) -> None:
        still = []
        for position, future in self._waiters:
            if self.position >= position:
                if not future.done():
                    future.set_result(None)
            else:
                still.append((position, future))
        self._waiters = still

    async def at(self, position: int, exact: bool = True, timeout: float = 60) -> None:
        """Wait until this seat was sent position ``position`` (or later)."""
        if self.position >= position and (self.position >= 0 or not exact):
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((position, future))
        await asyncio.wait_for(future, timeout)

    async def close(self) -> None:
        self.reader.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 5)


async def create_game(
    http: httpx.AsyncClient, base: str, seats: list[dict[str, Any]]
) -> dict[str, Any]:
    for attempt in range(20):
        resp = await http.post(
            f"{base}/api/games", json={"game": GAME, "mode": MODE, "seats": seats}
        )
        if resp.status_code == 200:
            data: dict[str, Any] = resp.json()
            return data
        await asyncio.sleep(0.5 * (attempt + 1))
    raise RuntimeError(f"cannot create a game: {resp.status_code} {resp.text}")


async def table(run: Run, index: int, with_bot: bool) -> None:
    """Games at one table, one after another, until the run stops."""
    source = address(index if not with_bot else 60_000 + index)
    rng = random.Random(index)
    # kept-alive connections are dropped before the server's 5 s would close them: a request
    # sent on a connection the server is closing that moment fails (a race, not a refusal)
    transport = httpx.AsyncHTTPTransport(
        local_address=source, limits=httpx.Limits(keepalive_expiry=2.0)
    )
    async with httpx.AsyncClient(transport=transport, timeout=60) as http:
        await asyncio.sleep(rng.random() * min(run.config.pace or 0.5, 2.0))
        n = 0
        while not run.stop:
            base = run.servers[(index + n) % len(run.servers)].base
            n += 1
            people = [{"name": f"t{index}a", "kind": "human"}]
            people.append(
                {"name": "bot", "kind": "bot", "level": "hard"}
                if with_bot
                else {"name": f"t{index}b", "kind": "human"}
            )
            try:
                data = await create_game(http, base, people)
                tokens = {s["seat"]: s["token"] for s in data["seats"] if "token" in s}
                seats = {i: await Seat.open(run, data["id"], t, source) for i, t in tokens.items()}
            except Exception as exc:
                run.results.problems[f"setup {type(exc).__name__}"] += 1
                await asyncio.sleep(1)
                continue
            if index == 0 and not with_bot:
                run.target_game = data["id"]
                run.target_ready.set()
            try:
                await play(run, index, seats, rng, with_bot)
            except (TimeoutError, OSError) as exc:
                run.results.problems[f"play {type(exc).__name__}"] += 1
            finally:
                for seat in seats.values():
                    await seat.close()


async def play(run: Run, index: int, seats: dict[int, Seat], rng: random.Random, bot: bool) -> None:
    pace = run.config.pace
    first = next(iter(seats.values()))
    # Each game's people start at a moment of their own within the pace, as people at
    # different tables do; tables started together would otherwise move in lockstep, all
    # of them in the same millisecond of every second (a burst, not a load).
    next_at = time.perf_counter() + (rng.random() * pace if pace else 0.0)
    while not run.stop:
        state = first.state
        if state.get("finished"):
            return
        position = state["position"]
        mover = seats.get(state["current_player"])
        if mover is None:  # the bot is to move: wait for it
            started = time.perf_counter()
            await first.at(position + 1)
            if run.measuring:
                run.results.bot_replies.append(time.perf_counter() - started)
            continue
        await mover.at(position)
        if pace:
            next_at += pace
            delay = next_at - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            else:  # behind (a slow answer): the pace starts again from now
                next_at = time.perf_counter()
        legal = mover.state["legal"]
        move = rng.choice(legal)
        sent = time.perf_counter()
        await mover.ws.send(json.dumps({"type": "move", "move": move, "position": position}))
        await mover.at(position + 1)
        run.record(time.perf_counter() - sent, index)
        for seat in seats.values():
            await seat.at(position + 1)


# -- the hostile clients -----------------------------------------------------------------------


async def flood(run: Run, count: int, per_address: int) -> None:
    """``count`` spectators opening at once on the target table; they stay and read."""
    await run.target_ready.wait()
    game_id = run.target_game
    assert game_id is not None
    server = run.ws_server(game_id)
    opened = Counter[str]()
    kept: list[ClientConnection] = []
    gate = asyncio.Semaphore(200)

    async def one(i: int) -> None:
        source = address(100_000 + i // per_address)
        async with gate:
            try:
                ws = await connect(
                    f"{server.ws}/ws/{game_id}",
                    compression=None,
                    open_timeout=30,
                    local_addr=(source, 0),
                    max_size=2**22,
                )
            except Exception as exc:
                opened[f"refused ({type(exc).__name__})"] += 1
                return
            await ws.send(json.dumps({"type": "hello", "token": None}))
            opened["opened"] += 1
            kept.append(ws)

    await asyncio.gather(*(one(i) for i in range(count)))

    async def drain(ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            async for _ in ws:
                pass
        opened["closed by the server"] += 1

    readers = [asyncio.get_running_loop().create_task(drain(ws)) for ws in kept]
    while not run.stop:
        await asyncio.sleep(0.5)
    run.results.notes.append("flood: " + ", ".join(f"{k} {v}" for k, v in sorted(opened.items())))
    for task in readers:
        task.cancel()
    for ws in kept:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 1)


def _frame(text: str) -> bytes:
    """One masked WebSocket text frame (what a client sends)."""
    data = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81])
    if len(data) < 126:
        head += bytes([0x80 | len(data)])
    else:
        head += bytes([0x80 | 126]) + len(data).to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


async def stalled(run: Run, frames: int = 2000) -> None:
    """A spectator with a 4 KB receive buffer that never reads, sending ``frames`` moves."""
    await run.target_ready.wait()
    game_id = run.target_game
    assert game_id is not None
    server = run.ws_server(game_id)
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((address(200_000), 0))
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", server.port))
    request = (
        f"GET /ws/{game_id} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    )
    await loop.sock_sendall(sock, request.encode())
    await asyncio.sleep(0.2)
    await loop.sock_sendall(sock, _frame(json.dumps({"type": "hello", "token": None})))
    sent = 0
    started = time.monotonic()
    cut = None
    try:
        for _ in range(frames):
            await asyncio.wait_for(
                loop.sock_sendall(
                    sock, _frame(json.dumps({"type": "move", "move": "1T1 x", "position": 0}))
                ),
                5,
            )
            sent += 1
        # then it sits there, never reading, saying ping now and then
        while not run.stop:
            await asyncio.sleep(0.5)
            await asyncio.wait_for(loop.sock_sendall(sock, _frame('{"type": "ping"}')), 5)
    except (OSError, TimeoutError) as exc:
        cut = f"cut by the server after {time.monotonic() - started:.1f} s ({type(exc).__name__})"
    finally:
        sock.close()
    run.results.notes.append(f"stalled spectator: sent {sent} moves; {cut or 'never cut'}")


# -- running -----------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def lag_probe(run: Run) -> None:
    """How late the client's own event loop wakes (its delays would count as the server's)."""
    while not run.stop:
        started = time.perf_counter()
        await asyncio.sleep(0.01)
        if run.measuring:
            run.results.client_lag.append(time.perf_counter() - started - 0.01)


async def drive(config: Config, servers_: list[Server]) -> tuple[Results, float]:
    run = Run(config, servers_)
    # The clients stand for hundreds of browsers on machines of their own: their garbage
    # collector's pauses (one process holding every table's sockets) must not be counted as
    # round trips of the server, so it stays off while measuring.
    gc.collect()
    gc.freeze()
    gc.disable()
    tasks = [
        asyncio.get_running_loop().create_task(table(run, i, False)) for i in range(config.tables)
    ]
    tasks += [
        asyncio.get_running_loop().create_task(table(run, i, True))
        for i in range(config.bot_tables)
    ]
    if config.flood:
        tasks.append(
            asyncio.get_running_loop().create_task(
                flood(run, config.flood, config.flood_per_address)
            )
        )
    for _ in range(config.stalled):
        tasks.append(asyncio.get_running_loop().create_task(stalled(run)))
    tasks.append(asyncio.get_running_loop().create_task(lag_probe(run)))
    await asyncio.sleep(config.warmup)
    run.measuring = True
    started = time.perf_counter()
    await asyncio.sleep(config.duration)
    run.measuring = False
    span = time.perf_counter() - started
    run.stop = True
    await asyncio.sleep(1.5)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    gc.enable()
    gc.unfreeze()
    return run.results, span


def measure(config: Config, pg_url: str | None) -> dict[str, Any]:
    with contextlib.ExitStack() as stack:
        if config.db == "postgresql":
            if not pg_url:
                raise SystemExit("PostgreSQL runs need --pg-url or POLIS_TEST_PG_URL")
            db_url = stack.enter_context(postgres_database(pg_url))
        else:
            folder = stack.enter_context(contextlib.ExitStack())
            import tempfile

            tmp = tempfile.mkdtemp(prefix="polis-load-db-")
            folder.callback(lambda: __import__("shutil").rmtree(tmp, ignore_errors=True))
            db_url = f"sqlite:///{tmp}/polis.db"
        redis_url = stack.enter_context(redis_server()) if config.processes > 1 else None
        env = {"POLIS_LIMITS": config.limits} if config.limits else {}
        procs = stack.enter_context(
            servers(
                config.processes,
                db_url,
                redis_url=redis_url,
                env=env,
                bot_workers=config.bot_workers,
            )
        )
        memory = Memory()
        beside = Beside()
        sampling = threading.Event()

        def sample() -> None:
            while not sampling.wait(1.0):
                memory.sample(procs)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        beside.start()
        # the people's side runs on uvloop, as the servers do: its cost per message stays
        # small beside theirs, as a browser's would be on a machine of its own
        results, span = uvloop.run(drive(config, procs))
        ours = [pid for server in procs for pid in children(server.proc.pid)]
        beside.stop(ours)
        memory.sample(procs)
        sampling.set()
        sampler.join()
    rtts = results.rtts
    out: dict[str, Any] = {
        "config": config.name,
        "moves_per_s": results.moves / span,
        "p50_ms": 1000 * percentile(rtts, 0.50),
        "p95_ms": 1000 * percentile(rtts, 0.95),
        "p99_ms": 1000 * percentile(rtts, 0.99),
        "max_ms": 1000 * max(rtts, default=float("nan")),
        "client_lag_p99_ms": 1000 * percentile(results.client_lag, 0.99),
        "web_mb": memory.web_peak,
        "workers_mb": memory.workers_peak,
        "beside": beside.describe(),
        "problems": dict(results.problems),
        "notes": results.notes,
    }
    if config.flood or config.stalled:
        out["target_p99_ms"] = 1000 * percentile(results.target_rtts, 0.99)
        out["target_moves"] = len(results.target_rtts)
    if results.bot_replies:
        out["bot_reply_p50_s"] = statistics.median(results.bot_replies)
        out["bot_reply_max_s"] = max(results.bot_replies)
    return out


def show(result: dict[str, Any]) -> None:
    line = (
        f"{result['config']}\n"
        f"    {result['moves_per_s']:8.1f} moves/s   round trip p50 {result['p50_ms']:.1f} ms, "
        f"p95 {result['p95_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms, "
        f"max {result['max_ms']:.1f} ms"
    )
    if "target_p99_ms" in result:
        line += (
            f"\n    target table: p99 {result['target_p99_ms']:.1f} ms over "
            f"{result['target_moves']} moves"
        )
    if "bot_reply_p50_s" in result:
        line += (
            f"\n    hard bot replies: p50 {result['bot_reply_p50_s']:.2f} s, "
            f"max {result['bot_reply_max_s']:.2f} s"
        )
    line += f"\n    client event loop lag p99 {result['client_lag_p99_ms']:.1f} ms"
    line += (
        f"\n    memory: web processes {result['web_mb']:.0f} MiB (peak), "
        f"bot workers {result['workers_mb']:.0f} MiB"
        f"\n    {result['beside']}"
    )
    for note in result["notes"]:
        line += f"\n    {note}"
    if result["problems"]:
        line += f"\n    refusals and problems: {result['problems']}"
    print(line, flush=True)


def wait_quiet(patience: float, idle: float = 0.15) -> float:
    """Wait until the machine's processors are nearly idle (less than ``idle`` of a core
    busy over 5 s), at most ``patience`` seconds; returns the seconds waited."""
    started = time.monotonic()
    while time.monotonic() - started < patience:
        before = busy_seconds()
        time.sleep(5)
        if (busy_seconds() - before) / 5 < idle:
            break
    return time.monotonic() - started


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "each configuration its warm-up and measured time plus a few seconds of start-up: "
        "about 80 seconds for people, bots, flood and stalled (10 + 60 s), 40 seconds for pg1 "
        "and pg2 (5 + 30 s); --preset all about 7 minutes.",
    )
    preset = "the preset's"
    parser.add_argument(
        "--preset", default="people", help="comma-separated: " + "|".join([*PRESETS, "all"])
    )
    parser.add_argument("--tables", type=int, help=f"tables of two people ({preset})")
    parser.add_argument(
        "--pace", type=float, help=f"seconds between a table's moves, 0: flat out ({preset})"
    )
    parser.add_argument("--processes", type=int, help=f"polis serve processes ({preset})")
    parser.add_argument("--db", choices=["sqlite", "postgresql"], help=f"the store ({preset})")
    parser.add_argument("--bot-tables", type=int, help=f"tables with a hard bot ({preset})")
    parser.add_argument("--flood", type=int, help=f"connections opened on one table ({preset})")
    parser.add_argument(
        "--flood-per-address", type=int, help=f"flood connections per address ({preset})"
    )
    parser.add_argument("--stalled", type=int, help=f"spectators that never read ({preset})")
    parser.add_argument("--duration", type=float, help=f"seconds measured ({preset})")
    parser.add_argument("--warmup", type=float, help=f"seconds before measuring ({preset})")
    parser.add_argument("--bot-workers", type=int, help=f"bot worker processes ({preset})")
    parser.add_argument(
        "--pg-url",
        default=os.environ.get("POLIS_TEST_PG_URL"),
        help="PostgreSQL for the postgresql presets (default: $POLIS_TEST_PG_URL)",
    )
    parser.add_argument("--json", action="store_true", help="also print each result as JSON")
    parser.add_argument(
        "--wait-quiet",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="before each configuration, wait up to this long for the machine to be idle",
    )
    args = parser.parse_args()
    names = list(PRESETS) if args.preset == "all" else args.preset.split(",")
    overrides = {
        k: v
        for k, v in vars(args).items()
        if v is not None and k in Config.__dataclass_fields__ and k != "name"
    }
    for name in names:
        config = replace(PRESETS[name], **overrides)
        if args.wait_quiet:
            waited = wait_quiet(args.wait_quiet)
            print(f"(waited {waited:.0f} s for an idle machine)", flush=True)
        result = measure(config, args.pg_url)
        show(result)
        if args.json:
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
