"""benchmarks/versus_tree.py: an agent of another checkout plays through its bridge, seats
are split fairly, and the figures are read from this checkout's seats."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from polis.core.registry import get_game

from .scripts import load_script

ROOT = Path(__file__).resolve().parents[2]


vt = load_script("versus_tree")


def _args(**kw: object) -> object:
    base = {
        "game": "quadropolis",
        "mode": "classic",
        "players": 2,
        "games": 4,
        "first_deal": 0,
        "spec": "greedy",
        "other_spec": "greedy",
        "seed": 3,
        "tree": str(ROOT),
        "clock": "wall",
    }
    base.update(kw)
    return type("Args", (), base)()


def test_each_deal_is_played_from_both_sides() -> None:
    two = list(vt.tasks(_args()))
    assert [(t.deal, t.ours) for t in two] == [(0, (0,)), (0, (1,)), (1, (0,)), (1, (1,))]
    four = list(vt.tasks(_args(players=4, games=2)))
    assert [t.ours for t in four] == [(0, 2), (1, 3)]


def test_cpu_budgets_are_not_spent_while_the_process_waits() -> None:
    """With ``--clock cpu`` a time budget counts the process's CPU seconds: a side whose
    core is taken by something else still gets all of its thinking; ``--clock wall`` counts
    wall seconds, as every version did before budgets counted CPU time."""
    code = (
        "import sys, time; sys.path.insert(0, 'benchmarks'); import tree_bridge as tb; "
        "from polis.bots.budget import Budget; tb.use_wall_clock(); "
        "wall = Budget(seconds=0.2).clock(); wall.tick(); time.sleep(0.3); print(wall.more()); "
        "tb.use_cpu_clock(); cpu = Budget(seconds=0.2).clock(); cpu.tick(); time.sleep(0.3); "
        "print(cpu.more())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "True"]


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_the_bridge_answers_a_legal_move_from_the_record(clock: str) -> None:
    game = get_game("metropolys")
    state = game.new_game("family", 2, seed=8)
    request = {"record": state.to_record(), "spec": "greedy", "seed": 1}
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "tree_bridge.py"), "--clock", clock],
        input=json.dumps(request) + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    answer = json.loads(done.stdout)
    move = state.parse_move(answer["move"])
    assert move in list(state.legal_moves())
    assert answer["seconds"] >= 0 and answer["cpu"] >= 0


@pytest.mark.parametrize("players", [2, 4])
def test_a_game_against_the_same_checkout_is_scored_for_our_seats(players: int) -> None:
    task = next(iter(vt.tasks(_args(players=players, games=2))))
    record = vt.play(task)
    assert record.moves[0] > 0 and record.moves[1] > 0  # both sides moved
    # every seat plays as often in Quadropolis: the seats were split half and half
    assert record.moves[0] == record.moves[1]
    # both sides report the CPU time of their thinking, never more than its wall time
    assert all(0 < cpu <= wall + 0.05 for cpu, wall in zip(record.cpu, record.seconds, strict=True))
    assert len(record.scores) == players
    assert 0 <= record.won <= 1
    assert 1 <= record.mean_rank <= players
    if players == 2:  # our one seat's share follows from its rank (a shared first: half)
        assert record.won == {1.0: 1.0, 1.5: 0.5, 2.0: 0.0}[record.mean_rank]
    # the logged game record replays to the scores it reports, and survives the log
    game = get_game(task.game)
    assert tuple(game.from_record(record.record).result().scores) == record.scores
    again = vt.load(json.dumps(dataclasses.asdict(record)))
    assert again.record == record.record and again.scores == record.scores
    summary = vt.summary([record])
    assert summary["games"] == 1 and summary["players"] == players
    low, high = summary["win_share_ci95"]
    assert low <= summary["win_share"] <= high


def test_merging_logs_of_other_clocks_is_refused(tmp_path: Path) -> None:
    """One summary is one pairing under one clock: logs that mix them are refused."""
    record = vt.play(next(iter(vt.tasks(_args(games=2)))))
    line = dataclasses.asdict(record)
    logs = []
    for clock in ("wall", "cpu"):
        line["task"]["clock"] = clock
        logs.append(tmp_path / f"{clock}.jsonl")
        logs[-1].write_text(json.dumps(line) + "\n")
    script = [sys.executable, str(ROOT / "benchmarks" / "versus_tree.py"), "--tree", str(ROOT)]
    merge = [*script, "--game", "quadropolis", "--mode", "classic", "--merge"]
    mixed = subprocess.run([*merge, *map(str, logs)], capture_output=True, text=True)
    assert mixed.returncode == 2 and "mix pairings or clocks" in mixed.stderr
    one = subprocess.run([*merge, str(logs[1])], capture_output=True, text=True, check=True)
    assert json.loads(one.stdout)["clock"] == "cpu"
