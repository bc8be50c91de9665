"""This checkout's agent against another checkout's: a level measured across versions.

The ladder compares levels of one version; this asks whether a level got stronger, e.g.
today's ``hard`` against ``hard`` as it was when an issue was filed. The other checkout's
agent runs in its own process (``benchmarks/tree_bridge.py`` with that checkout's ``src``
first on the path), fed the game record of formats.md §3 and answering in notation, so
each side runs its own engine, knowledge and search at its own speed, with the same spec
(``hard`` = the same time per move on both sides). This process deals and referees.

2 players: each deal twice, this checkout's agent once in each seat. 3-4 players: each deal
twice, this checkout's agent in the even seats, then in the odd ones (half the seats each).
Printed: this checkout's win share per seat (a shared first place counts half; parity 0.5
with 2 players, 1/players otherwise) with its Wilson 95% interval, its share of the games
won, its mean rank with a 95% interval (parity (players + 1) / 2), and each side's seconds
per move, search iterations per wall and per CPU second, and the share of its thinking
time that was CPU time (below 1 when its thinking shared a core: a time-budgeted duel is
fair only where both sides got theirs).

    .venv/bin/python benchmarks/versus_tree.py --tree /tmp/old-checkout --game metropolys
        --mode family --players 2 --games 100 [--spec hard] [--other-spec hard]
        [--seed 1] [--first-deal 0] [--workers 2] [--clock wall|cpu] [--log FILE]
    .venv/bin/python benchmarks/versus_tree.py --tree ... --game ... --mode ... --merge LOG...

``--first-deal`` lets several runs share the deals of one series (their logs merged). Each
line of ``--log`` also holds the game's record (formats.md §3), for replaying or analysing
the games later.

Make the other checkout with ``git worktree add /tmp/old-checkout <commit>``. With the
default ``--clock wall`` run at most one worker per core: the agents think for a fixed
time, so a busy machine weakens them, and not always both sides alike (the summary's
``cpu_share_of_thinking`` shows it). ``--clock cpu`` makes every time budget count the
thinking side's own CPU seconds: the same thinking on either side whatever else runs.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any, cast

import bench_args
from polis.arena.stats import mean_ci, wilson
from polis.bots.agent import Agent
from polis.bots.budget import Budget
from polis.bots.factory import make_agent
from polis.core.match import Seat, Turn, derive_seed, play_match
from polis.core.moves import Move
from polis.core.protocol import Game, GameState
from polis.core.registry import get_game
from tree_bridge import think, use_cpu_clock, use_wall_clock  # this script's sibling

BRIDGE = Path(__file__).with_name("tree_bridge.py")


@dataclass(frozen=True)
class Task:
    """One game: the deal, which seats this checkout plays, the specs and the other tree."""

    game: str
    mode: str
    players: int
    deal: int
    ours: tuple[int, ...]
    spec: str
    other_spec: str
    seed: int
    tree: str
    clock: str = "wall"  # what the time budgets count: wall seconds or each side's CPU seconds


@dataclass
class Record:
    """A finished game, seen from this checkout's seats."""

    task: Task
    scores: tuple[int, ...]
    mean_rank: float  # of this checkout's seats
    won: float  # this checkout's share of the game's win (ties split)
    moves: tuple[int, int]  # (ours, theirs)
    seconds: tuple[float, float]
    iterations: tuple[int, int]
    #: CPU seconds of the thinking (ours, theirs): below ``seconds`` when a side's thinking
    #: shared its core; the two sides are only comparable where both got their core
    cpu: tuple[float, float] = (0.0, 0.0)
    #: the game record (formats.md §3): the game can be replayed, reviewed or analysed later
    record: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False)

    @property
    def win_share(self) -> float:
        """Per seat of this checkout (parity 1 / players)."""
        return self.won / len(self.task.ours)


class Tally:
    """One side's moves, thinking seconds (wall and CPU) and search iterations in a game."""

    def __init__(self) -> None:
        self.moves = 0
        self.seconds = 0.0
        self.cpu = 0.0
        self.iterations = 0

    def add(self, spent: dict[str, Any]) -> None:
        """One move's costs, as :func:`tree_bridge.think` reports them."""
        self.moves += 1
        self.seconds += spent["seconds"]
        self.cpu += spent["cpu"]
        self.iterations += spent["iterations"]


def our_seat(agent: Agent, budget: Budget, game: Game, tally: Tally) -> Seat:
    """This checkout's agent as a seat, timed as the bridge times the other side's."""

    def choose(turn: Turn) -> Move:
        move, spent = think(agent, turn.view, turn.legal, game, budget)
        tally.add(spent)
        return cast(Move, move)

    return choose


def their_seat(other: OtherAgent, state: GameState, spec: str, seed: int, tally: Tally) -> Seat:
    """A seat of the other checkout: the record so far out, its move in notation back (the
    first request of the game makes the seat's agent there)."""
    first: dict[str, Any] = {"spec": spec, "seed": seed}

    def choose(turn: Turn) -> Move:
        request: dict[str, Any] = {"record": state.to_record(), **first}
        first.clear()
        answer = other.ask(request)
        tally.add(answer)
        return state.parse_move(answer["move"])

    return choose


class OtherAgent:
    """The other checkout's agents, in their bridge process (one per worker, reused)."""

    def __init__(self, tree: str, clock: str) -> None:
        env = dict(os.environ, PYTHONPATH=str(Path(tree) / "src"))
        self.proc = subprocess.Popen(
            [sys.executable, str(BRIDGE), "--clock", clock],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the other checkout's bridge stopped (see its error above)")
        answer: dict[str, Any] = json.loads(line)
        return answer


_OTHER: dict[tuple[str, str], OtherAgent] = {}


def play(task: Task) -> Record:
    """Play one game of ``task`` (in a worker process)."""
    if task.clock == "cpu":
        use_cpu_clock()
    else:
        use_wall_clock()
    other = _OTHER.get((task.tree, task.clock))
    if other is None:
        other = _OTHER[task.tree, task.clock] = OtherAgent(task.tree, task.clock)
    game = get_game(task.game)
    state = game.new_game(task.mode, task.players, seed=derive_seed(task.seed, "deal", task.deal))
    ours, theirs = Tally(), Tally()
    seats: list[Seat] = []
    for seat in range(task.players):
        side = "ours" if seat in task.ours else "theirs"
        seed = derive_seed(task.seed, side, task.deal, task.ours[0], seat)
        if seat in task.ours:
            agent, budget = make_agent(task.spec, seed)
            seats.append(our_seat(agent, budget, game, ours))
        else:
            seats.append(their_seat(other, state, task.other_spec, seed, theirs))
    play_match(state, seats)
    result = state.result()
    shares, ranks = result.win_shares(), result.ranks()
    return Record(
        task=task,
        scores=tuple(result.scores),
        mean_rank=sum(ranks[p] for p in task.ours) / len(task.ours),
        won=sum(shares[p] for p in task.ours),
        moves=(ours.moves, theirs.moves),
        seconds=(ours.seconds, theirs.seconds),
        cpu=(ours.cpu, theirs.cpu),
        iterations=(ours.iterations, theirs.iterations),
        record=state.to_record(),
    )


def tasks(args: argparse.Namespace) -> Iterator[Task]:
    """Each deal twice, this checkout's agent in the other seats the second time."""
    players = args.players
    for deal in range(args.first_deal, args.first_deal + (args.games + 1) // 2):
        for half in (0, 1):
            if players == 2:
                ours: tuple[int, ...] = (half,)
            else:
                ours = tuple(p for p in range(players) if p % 2 == half)
            yield Task(
                args.game,
                args.mode,
                players,
                deal,
                ours,
                args.spec,
                args.other_spec,
                args.seed,
                str(Path(args.tree).resolve()),
                args.clock,
            )


def summary(records: Sequence[Record]) -> dict[str, Any]:
    """The figures of the module doc."""
    first = records[0].task
    n = len(records)
    seats = len(first.ours)
    share = sum(r.win_share for r in records)
    low, high = wilson(share * seats, n * seats)
    rank, rank_low, rank_high = mean_ci([r.mean_rank for r in records])
    moves = [sum(r.moves[i] for r in records) for i in (0, 1)]
    secs = [sum(r.seconds[i] for r in records) for i in (0, 1)]
    cpu = [sum(r.cpu[i] for r in records) for i in (0, 1)]
    its = [sum(r.iterations[i] for r in records) for i in (0, 1)]
    return {
        "game": first.game,
        "mode": first.mode,
        "players": first.players,
        "spec": first.spec,
        "other_spec": first.other_spec,
        "other_tree": first.tree,
        "clock": first.clock,
        "games": n,
        "win_share": round(share / n, 3),
        "win_share_ci95": [round(low, 2), round(high, 2)],
        "share_of_games_won": round(sum(r.won for r in records) / n, 3),
        "mean_rank": round(rank, 2),
        "mean_rank_ci95": [round(rank_low, 2), round(rank_high, 2)],
        "seconds_per_move": [round(secs[i] / max(moves[i], 1), 4) for i in (0, 1)],
        "cpu_share_of_thinking": [round(cpu[i] / secs[i], 3) if secs[i] else 0 for i in (0, 1)],
        "iterations_per_cpu_second": [round(its[i] / cpu[i], 1) if cpu[i] else 0 for i in (0, 1)],
        "iterations_per_second": [round(its[i] / secs[i], 1) if secs[i] else 0 for i in (0, 1)],
    }


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.strip()]


def load(line: str) -> Record:
    """A record from a line of a --log file."""
    data = json.loads(line)
    task = data.pop("task")
    task["ours"] = tuple(task["ours"])
    kept = {f.name for f in dataclasses.fields(Record)}  # older logs also hold win_share
    fields: dict[str, Any] = {
        key: tuple(value) if isinstance(value, list) else value
        for key, value in data.items()
        if key in kept
    }
    return Record(task=Task(**task), **fields)


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "with hard on both sides about 1-2 minutes a game with 2 players (longer with more): "
        "2-3 hours for the default 100 games on one worker, about half that on two. --merge "
        "only reads files: seconds.",
    )
    parser.add_argument("--tree", required=True, help="the other checkout (its src is used)")
    parser.add_argument("--game", required=True, help="quadropolis or metropolys")
    parser.add_argument("--mode", required=True, help="the game's mode")
    parser.add_argument("--players", type=int, default=2, help="seats at each table")
    parser.add_argument("--games", type=int, default=100, help="games (each deal twice)")
    parser.add_argument("--spec", default="hard", help="this checkout's agent")
    parser.add_argument("--other-spec", default="hard", help="the other checkout's agent")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and agents")
    parser.add_argument("--first-deal", type=int, default=0, help="skip the deals before")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="what time budgets count: wall seconds, or each side's own CPU seconds",
    )
    parser.add_argument("--log", type=Path, help="append each game (JSON lines)")
    parser.add_argument("--merge", type=Path, nargs="+", help="summarise --log files only")
    args = parser.parse_args()
    if args.merge:
        records = [load(line) for f in args.merge for line in _lines(f)]
        kinds = {
            (t.game, t.mode, t.players, t.spec, t.other_spec, t.clock)
            for t in (r.task for r in records)
        }
        if len(kinds) > 1:  # one summary is one pairing under one clock
            parser.error(f"the logs mix pairings or clocks: {sorted(kinds)}")
        print(json.dumps(summary(records), indent=2))
        return
    if not (Path(args.tree) / "src" / "polis").is_dir():
        parser.error(f"{args.tree} is not a polis checkout (no src/polis)")
    records: list[Record] = []
    with Pool(args.workers) as pool:
        for record in pool.imap_unordered(play, list(tasks(args))):
            records.append(record)
            line = json.dumps(asdict(record))
            if args.log:
                with args.log.open("a") as log:
                    log.write(line + "\n")
            print(
                f"game {len(records)}: deal {record.task.deal} ours {record.task.ours} "
                f"share {record.win_share} scores {record.scores}",
                file=sys.stderr,
                flush=True,
            )
    print(json.dumps(summary(records), indent=2))


if __name__ == "__main__":
    main()
