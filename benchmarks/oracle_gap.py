"""The oracle gap: each searching agent against its all-seeing twin, as a number.

Usage: .venv/bin/python benchmarks/oracle_gap.py [--games 100] [--budgets 400,800,1600]
       [--agents mcts,montecarlo] [--settings metropolys:family:2,...] [--lone honest|twin]
       [--inference policy|counts] [--seed 1] [--workers 1] [--first-deal 0] [--json F]
       [--out F] [--log F.jsonl]
       .venv/bin/python benchmarks/oracle_gap.py --merge A.jsonl B.json ...

The twin is the same agent with the same iteration budget whose determinizations are the
true state: every ``game.determinize(view, rng)`` its knowledge asks for returns a clone of
the state being played (the opponents' secret cards, the face-down tiles and the future
rounds included). Everything else (candidate selection, belief updates, playouts, tree
reuse) runs unchanged, so the gap measures what sampling the hidden facts costs the honest
agent. The truth is handed over by this script's match loop only (:class:`SeeingGame`):
nothing in ``polis`` can reach it.

Tables: 2 players play each deal twice, the honest agent once in each seat (parity 0.5).
4 players play each deal four times, the lone agent once in each seat: ``--lone honest``
(default) is one honest agent against three twins (win share parity 0.25, mean rank parity
2.5), ``--lone twin`` one twin against three honest agents (every honest seat counts).
``--inference counts`` gives the honest agents the older Metropolys card inference (the
count rule, see ``inference_duel.py``), for the gap as it was before the policy-based one.
Win shares count a shared first place as a fraction; their 95% intervals are Wilson score
intervals over seat-games (games of one deal are correlated, so the intervals are, if
anything, a little narrow). The same ``--seed`` gives the same deals, agents and figures
whatever ``--workers`` is; every budget plays the same deals.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any, cast

import bench_args
from inference_duel import CountsGame
from polis.arena.stats import mean_ci, wilson
from polis.bots.agent import Agent
from polis.bots.budget import Budget
from polis.bots.factory import AGENTS
from polis.core.match import Turn, derive_seed, play_match
from polis.core.protocol import Game, GameState
from polis.core.registry import get_game
from polis.core.view import View

#: (game, mode, players) measured by default.
SETTINGS = [
    ("metropolys", "family", 2),
    ("metropolys", "expert", 2),
    ("quadropolis", "classic", 2),
    ("quadropolis", "expert", 2),
    ("metropolys", "family", 4),
    ("metropolys", "expert", 4),
    ("quadropolis", "classic", 4),
    ("quadropolis", "expert", 4),
]
#: The searching agents (those that sample hidden facts).
SEARCHERS = ("mcts", "montecarlo")


class SeeingGame:
    """A game whose ``determinize`` returns a clone of the true state (the twin's eyes).

    Wraps the real game and forwards everything else, so the game's own knowledge plug-in
    (belief, evaluation, playouts) works unchanged but draws only the truth. ``truth`` is
    the state being played: the match loop mutates it in place, so it is current at every
    decision. ``clones`` counts the samples handed out (tests check the seam is used).
    """

    def __init__(self, game: Game, truth: GameState) -> None:
        self.inner = game
        self.truth = truth
        self.clones = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def determinize(self, view: View, rng: random.Random, **_: Any) -> GameState:
        """The true state, whatever the sampler's weights (a stale truth is a bug here)."""
        if len(self.truth.history) != len(view.moves):
            raise RuntimeError("the twin's truth is not the position it is asked about")
        self.clones += 1
        return self.truth.clone()


@dataclass(frozen=True, slots=True)
class Task:
    """One game: a deal, an agent and budget, and the seats the twins take."""

    game: str
    mode: str
    players: int
    agent: str
    budget: int
    deal: int
    twins: tuple[int, ...]
    seed: int
    #: How the honest agents' Metropolys knowledge learns the cards ("policy" or "counts").
    inference: str = "policy"


@dataclass(frozen=True, slots=True, kw_only=True)
class Record(Task):
    """One game (its task) and its outcome for the honest seats (and the whole table, for
    the JSON)."""

    scores: tuple[float, ...]
    ranks: tuple[float, ...]
    win_shares: tuple[float, ...]
    seconds: float

    @property
    def honest(self) -> tuple[int, ...]:
        return tuple(p for p in range(self.players) if p not in self.twins)


def deal_seed(seed: int, game: str, mode: str, players: int, deal: int) -> int:
    """The deal's seed: the same for every agent and budget, so budgets are compared on
    the same deals."""
    return derive_seed(seed, "oracle-gap", game, mode, players, "deal", deal)


def tasks(
    settings: Iterable[tuple[str, str, int]],
    agents: Sequence[str],
    budgets: Sequence[int],
    games: int,
    lone: str,
    seed: int,
    first_deal: int = 0,
    inference: str = "policy",
) -> list[Task]:
    """Every game of the run, in a fixed order (each deal with the lone seat rotated).

    ``first_deal`` skips deals, so that one point can be measured in several runs and the
    records merged (``--merge``).
    """
    out = []
    for game, mode, players in settings:
        deals = math.ceil(games / players)
        for agent in agents:
            for budget in budgets:
                for deal in range(first_deal, first_deal + deals):
                    for seat in range(players):
                        if players == 2 or lone == "honest":
                            twins = tuple(p for p in range(players) if p != seat)
                        else:
                            twins = (seat,)
                        out.append(
                            Task(game, mode, players, agent, budget, deal, twins, seed, inference)
                        )
    return out


def seat_eyes(task: Task, game: Game, state: GameState) -> list[Game]:
    """The game each seat's agent sees through: the truth for the twins, the real game (or
    its count-rule twin, ``--inference counts``) for the honest seats."""
    seeing = cast(Game, SeeingGame(game, state))
    honest = cast(Game, CountsGame(game)) if task.inference == "counts" else game
    return [seeing if p in task.twins else honest for p in range(task.players)]


def play(task: Task) -> Record:
    """Play one game of ``task`` (each seat's agent seeded from the run's seed)."""
    game = get_game(task.game)
    state = game.new_game(
        task.mode,
        task.players,
        seed=deal_seed(task.seed, task.game, task.mode, task.players, task.deal),
    )
    budget = Budget(iterations=task.budget)
    seats = []
    for p, eyes in enumerate(seat_eyes(task, game, state)):
        agent_seed = derive_seed(
            task.seed, "oracle-gap", task.game, task.mode, task.players, task.agent,
            task.budget, task.deal, "twins" + "".join(map(str, task.twins)), p,
        )  # fmt: skip
        agent: Agent = AGENTS[task.agent](random.Random(agent_seed))

        def choose(turn: Turn, agent: Agent = agent, eyes: Game = eyes) -> Any:
            return agent.act(turn.view, turn.legal, eyes, budget)

        seats.append(choose)
    start = time.perf_counter()
    play_match(state, seats)
    result = state.result()
    return Record(
        **asdict(task),
        scores=tuple(float(s) for s in result.scores),
        ranks=result.ranks(),
        win_shares=result.win_shares(),
        seconds=round(time.perf_counter() - start, 3),
    )


def summarise(records: Sequence[Record]) -> list[dict[str, Any]]:
    """One row per (game, mode, players, agent, budget, inference): the honest seats' figures.

    Every honest seat of every game is one observation; win share with its Wilson 95%
    interval (ties count as fractions), mean rank with its normal interval, the win share
    in each seat (a seat effect shows here), and the deals split by how the honest agent
    did over their games (2 players: both won, split, both lost).
    """
    groups: dict[tuple[str, str, int, str, int, str], list[Record]] = {}
    for r in records:
        key = (r.game, r.mode, r.players, r.agent, r.budget, r.inference)
        groups.setdefault(key, []).append(r)
    rows = []
    for (game, mode, players, agent, budget, inference), group in groups.items():
        shares: list[float] = []
        ranks: list[float] = []
        margins: list[float] = []
        by_seat: dict[int, list[float]] = {}
        by_deal: dict[int, float] = {}
        for r in group:
            for p in r.honest:
                shares.append(r.win_shares[p])
                ranks.append(r.ranks[p])
                margins.append(r.scores[p] - max(s for q, s in enumerate(r.scores) if q != p))
                by_seat.setdefault(p, []).append(r.win_shares[p])
                by_deal[r.deal] = by_deal.get(r.deal, 0.0) + r.win_shares[p]
        n = len(shares)
        wins = sum(shares)
        lo, hi = wilson(wins, n)
        rank, rank_lo, rank_hi = mean_ci(ranks)
        margin, _, _ = mean_ci(margins)
        twins = len(group[0].twins)
        learns = "" if inference == "policy" else f" ({inference})"
        rows.append(
            {
                "game": game,
                "mode": mode,
                "players": players,
                "agent": agent,
                "budget": budget,
                "lineup": f"{players - twins} honest{learns} v {twins} twin{'s' * (twins > 1)}",
                "games": len(group),
                "observations": n,
                "wins": round(wins, 4),
                "win_share": round(wins / n, 4) if n else None,
                "win_share_ci": [round(lo, 3), round(hi, 3)],
                "win_share_parity": round(1 / players, 4),
                "mean_rank": round(rank, 3),
                "mean_rank_ci": [round(max(1.0, rank_lo), 3), round(min(players, rank_hi), 3)],
                "mean_margin": round(margin, 2),
                "win_share_by_seat": {
                    str(p): round(sum(v) / len(v), 3) for p, v in sorted(by_seat.items())
                },
                "deals_by_honest_wins": {
                    str(k): sum(1 for v in by_deal.values() if v == k)
                    for k in sorted(set(by_deal.values()))
                },
                "seconds_per_game": round(sum(r.seconds for r in group) / len(group), 2),
            }
        )
    return rows


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The summary as a Markdown table."""
    lines = [
        "| game | mode | players | lineup | agent | iterations | games | honest win share "
        "(95% CI) | parity | honest mean rank (95% CI) | honest margin | by seat | s/game |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lo, hi = r["win_share_ci"]
        rlo, rhi = r["mean_rank_ci"]
        seats = " / ".join(f"{v:.2f}" for v in r["win_share_by_seat"].values())
        lines.append(
            f"| {r['game']} | {r['mode']} | {r['players']} | {r['lineup']} | {r['agent']} "
            f"| {r['budget']} | {r['games']} | {r['win_share']:.2f} [{lo:.2f}, {hi:.2f}] "
            f"| {r['win_share_parity']:.2f} | {r['mean_rank']:.2f} [{rlo:.2f}, {rhi:.2f}] "
            f"| {r['mean_margin']:+.1f} | {seats} | {r['seconds_per_game']} |"
        )
    return "\n".join(lines)


def run(all_tasks: Sequence[Task], workers: int, log: Path | None = None) -> list[Record]:
    """Play every task (in ``workers`` processes); records in task order, each also
    appended to ``log`` (JSON lines) as it comes, so a stopped run keeps its games."""
    records = []
    with Pool(workers) if workers > 1 else _Serial() as pool:
        for i, r in enumerate(pool.imap(play, all_tasks, chunksize=1), 1):
            records.append(r)
            if log is not None:
                with log.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(asdict(r)) + "\n")
            honest = sum(r.win_shares[p] for p in r.honest)
            print(
                f"  game {i}/{len(all_tasks)}: {r.game} {r.mode} {r.players}p {r.agent} "
                f"{r.budget}i deal {r.deal} twins {r.twins}: honest {honest:g} ({r.seconds} s)",
                file=sys.stderr,
                flush=True,
            )
    return records


class _Serial:
    """``Pool``'s ``imap`` in this process (one worker: no start-up, easier to profile)."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def imap(self, func: Any, items: Iterable[Task], chunksize: int = 1) -> Iterator[Record]:
        return map(func, items)


def parse_settings(text: str) -> list[tuple[str, str, int]]:
    """``game:mode:players,...`` (empty: every default setting)."""
    if not text:
        return list(SETTINGS)
    out = []
    for part in text.split(","):
        game, mode, players = part.strip().split(":")
        out.append((game, mode, int(players)))
    return out


def _saved(path: Path) -> list[dict[str, Any]]:
    """The records of a ``--json`` file or a ``--log`` file."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return cast(list[dict[str, Any]], json.loads(text)["records"])


def _tuples(record: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    """A saved record's lists as tuples."""
    return {k: tuple(record[k]) for k in ("twins", "scores", "ranks", "win_shares")}


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "a day or more with the defaults (48 points: 8 settings, 2 agents, 3 budgets, 100 "
        "games each); one point of 100 games takes 10-40 minutes on two workers, so pick "
        "points with --settings, --agents and --budgets. --merge only reads files: seconds.",
    )
    parser.add_argument("--games", type=int, default=100, help="games per point")
    parser.add_argument("--budgets", default="400,800,1600", help="iterations, e.g. 400,800")
    parser.add_argument("--agents", default=",".join(SEARCHERS), help="searching agents")
    parser.add_argument("--settings", default="", help="e.g. metropolys:family:2 (default all)")
    parser.add_argument(
        "--lone",
        choices=("honest", "twin"),
        default="honest",
        help="4 players: the one agent against three of the other kind",
    )
    parser.add_argument(
        "--inference",
        choices=("policy", "counts"),
        default="policy",
        help="the honest agents' Metropolys card inference",
    )
    parser.add_argument("--first-deal", type=int, default=0, help="skip the deals before")
    parser.add_argument(
        "--merge", nargs="+", type=Path, default=None, help="summarise --json / --log files"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and agents")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--json", type=Path, default=None, help="write records and summary")
    parser.add_argument("--out", type=Path, default=None, help="write the Markdown table")
    parser.add_argument("--log", type=Path, default=None, help="append each game (JSON lines)")
    args = parser.parse_args()
    if args.merge:
        records = [Record(**{**r, **_tuples(r)}) for path in args.merge for r in _saved(path)]
        records.sort(key=lambda r: (r.game, r.mode, r.players, r.agent, r.budget, r.deal))
        print(markdown(summarise(records)))
        return
    agents = [a.strip() for a in args.agents.split(",")]
    for a in agents:
        if a not in SEARCHERS:
            parser.error(f"{a!r} does not sample hidden facts: choose from {SEARCHERS}")
    budgets = [int(b) for b in args.budgets.split(",")]
    all_tasks = tasks(
        parse_settings(args.settings),
        agents,
        budgets,
        args.games,
        args.lone,
        args.seed,
        args.first_deal,
        args.inference,
    )
    start = time.perf_counter()
    records = run(all_tasks, args.workers, args.log)
    rows = summarise(records)
    table = markdown(rows)
    print(table)
    print(f"({len(records)} games, {time.perf_counter() - start:.0f} s, seed {args.seed})")
    if args.out is not None:
        args.out.write_text(table + "\n", encoding="utf-8")
    if args.json is not None:
        data = {
            "args": {k: str(v) for k, v in vars(args).items()},
            "summary": rows,
            "records": [asdict(r) for r in records],
        }
        args.json.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
