"""Small tournaments: in-process, local worker processes and Ray's local mode agree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from polis.arena import Tournament, run_tournament
from polis.cli.main import app

TOY = "toygame:GAME"
T = Tournament(TOY, "basic", 2, ("random", "mcts:25i"), 8, seed=4)


def strip(summary: dict[str, object]) -> dict[str, object]:
    out = dict(summary)
    out.pop("seconds")
    out["agents"] = [
        {k: v for k, v in row.items() if "second" not in k}  # time is not reproducible
        for row in summary["agents"]  # type: ignore[attr-defined]
    ]
    return out


def test_local_workers_match_one_process(tmp_path: Path) -> None:
    one = run_tournament(T, workers=1)
    seen: list[int] = []
    two = run_tournament(
        T, workers=2, records=tmp_path, progress=lambda o, done, total: seen.append(done)
    )
    assert seen == list(range(1, 9))
    two.pop("records")
    one.pop("records")
    assert strip(one) == strip(two)
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 8
    record = json.loads(files[0].read_text())
    assert record["names"][0].startswith("bot:") and record["setup"]["lucky"]
    assert one["agents"][0]["games"] == 8 and one["games"] == 8


@pytest.mark.slow  # starts a local Ray
def test_ray_local_mode_matches() -> None:
    pytest.importorskip("ray")
    one = run_tournament(T, workers=1)
    ray = run_tournament(T, workers=2, ray_address="local")
    assert strip(one) == strip(ray)


def test_cli_json_and_errors() -> None:
    runner = CliRunner()
    args = ["arena", TOY, "--mode", "basic", "--players", "3", "--games", "3"]
    ok = runner.invoke(app, [*args, "--agents", "random,greedy,mcts:10i", "--json"])
    assert ok.exit_code == 0, ok.output
    data = json.loads(ok.stdout)
    assert [row["agent"] for row in data["agents"]] == ["random", "greedy", "mcts:10i"]
    for key in ("games", "wins", "win_share", "win_share_ci", "mean_rank", "mean_score", "rating"):
        assert key in data["agents"][0]
    table = runner.invoke(app, [*args, "--agents", "random,greedy"])
    assert table.exit_code == 0 and "win share" in table.stdout
    bad = runner.invoke(app, [*args, "--agents", "random,deepblue"])
    assert bad.exit_code == 2 and "unknown agent 'deepblue'" in bad.output
    bad = runner.invoke(app, [*args, "--agents", "mcts:fast"])
    assert bad.exit_code == 2 and "bad budget" in bad.output
    bad = runner.invoke(app, ["arena", "chess", "--agents", "random"])
    assert bad.exit_code == 2 and "unknown game" in bad.output
