"""Run a tournament in this process, in local worker processes, or on a Ray cluster.

The three ways give the same results for the same seed when the agents' budgets are
iterations (time budgets depend on the machine and its load).
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from polis.arena import ratings
from polis.arena.match import Outcome, outcome_json, play_table
from polis.arena.schedule import Seating, schedule
from polis.arena.stats import summarise
from polis.bots.factory import parse_agent_spec
from polis.core.errors import InputError
from polis.core.registry import load_game

Progress = Callable[[Outcome, int, int], None]


@dataclass(frozen=True, slots=True)
class Tournament:
    """Everything that defines a run (and nothing about where it runs)."""

    game: str
    mode: str
    players: int
    agents: tuple[str, ...]
    games: int
    seed: int = 0

    def check(self) -> None:
        """InputError for an unknown game, mode, player count or agent spec."""
        load_game(self.game).check_table(self.mode, self.players)
        if not self.agents:
            raise InputError("name at least one agent")
        if self.games < 1:
            raise InputError("play at least one game")
        for spec in self.agents:
            parse_agent_spec(spec)
        ratings.check()  # before the games: their results would be lost after them


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which then stops them all at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _local(
    t: Tournament, tables: Sequence[Seating], workers: int, records: str | None, progress: Progress
) -> list[Outcome]:
    args = (t.game, t.mode, t.players, list(t.agents))
    outcomes: list[Outcome] = []
    if workers <= 1:
        for table in tables:
            outcomes.append(play_table(*args, table, records))
            progress(outcomes[-1], len(outcomes), len(tables))
        return outcomes
    import multiprocessing

    context = multiprocessing.get_context("spawn")  # no inherited threads or locks
    # A Pool, not a ProcessPoolExecutor: on Ctrl-C (or any error) terminate() stops the
    # running games at once instead of waiting for every queued one to finish.
    pool = context.Pool(min(workers, len(tables)), initializer=_ignore_interrupts)
    try:
        play = functools.partial(play_table, *args, records=records)
        for outcome in pool.imap_unordered(play, tables):
            outcomes.append(outcome)
            progress(outcome, len(outcomes), len(tables))
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
    return outcomes


def _ray(
    t: Tournament,
    tables: Sequence[Seating],
    address: str,
    workers: int,
    records: str | None,
    progress: Progress,
) -> list[Outcome]:
    try:
        import ray
    except ImportError:
        raise InputError("--ray needs the ray package: pip install 'ray[default]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        if address == "local":
            # Workers on this machine import what the driver imports (tests, plug-in games).
            path = os.pathsep.join(p for p in sys.path if p and os.path.isdir(p))
            ray.init(
                num_cpus=max(1, workers),
                runtime_env={"env_vars": {"PYTHONPATH": path}},
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        else:
            import polis

            package = str(Path(polis.__file__).parent)
            ray.init(address=address, runtime_env={"py_modules": [package]}, log_to_driver=False)
    try:
        remote: Any = ray.remote(num_cpus=1)(play_table)
        args = (t.game, t.mode, t.players, list(t.agents))
        pending = [remote.remote(*args, table, records) for table in tables]
        outcomes: list[Outcome] = []
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    outcomes.append(ray.get(ref))
                    progress(outcomes[-1], len(outcomes), len(tables))
        except BaseException:
            for ref in pending:  # Ctrl-C: stop the games still running or queued
                ray.cancel(ref, force=True)
            raise
        return outcomes
    finally:
        if started_here:
            ray.shutdown()


def run_tournament(
    t: Tournament,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    records: Path | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play the tournament and return the summary printed by ``polis arena --json``."""
    t.check()
    if workers < 1:
        raise InputError(f"use at least 1 worker (got {workers})")
    tables = schedule(t.seed, len(t.agents), t.players, t.games)
    folder = str(records) if records is not None else None
    report: Progress = progress or (lambda o, d, n: None)
    start = time.perf_counter()
    if ray_address:
        workers = workers if workers > 1 else (os.cpu_count() or 1)
        outcomes = _ray(t, tables, ray_address, workers, folder, report)
    else:
        outcomes = _local(t, tables, workers, folder, report)
    seconds = time.perf_counter() - start
    outcomes.sort(key=lambda o: o.index)
    return summary(t, outcomes, seconds, records)


def summary(
    t: Tournament, outcomes: Sequence[Outcome], seconds: float, records: Path | None = None
) -> dict[str, Any]:
    """The JSON object of a finished tournament."""
    rated = ratings.rate(t.agents, outcomes)
    seat_wins = [0.0] * t.players
    for o in outcomes:
        for seat, share in enumerate(o.win_shares):
            seat_wins[seat] += share
    return {
        "game": load_game(t.game).name,
        "mode": t.mode,
        "players": t.players,
        "games": len(outcomes),
        "seed": t.seed,
        "seconds": round(seconds, 2),
        "agents": summarise(t.agents, outcomes, rated),
        "seat_win_share": [round(w / len(outcomes), 4) for w in seat_wins] if outcomes else [],
        "records": str(records) if records is not None else None,
        "results": [outcome_json(o) for o in outcomes],
    }
