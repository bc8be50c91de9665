"""The arena's effort columns: search iterations per move (``iter/move`` with ``--wide``) and
per second of CPU time, since a time budget counts CPU time."""

from __future__ import annotations

from polis.arena.runner import Tournament, run_tournament


def test_iterations_per_move_are_the_budgets() -> None:
    """With an iteration budget every decided move searches exactly its budget (moves with
    one legal choice search nothing), so iterations per move are at most the budget and
    near it; the CPU seconds are counted too."""
    t = Tournament("toygame:GAME", "basic", 2, ("montecarlo:7i", "greedy"), games=4, seed=1)
    rows = {row["agent"]: row for row in run_tournament(t)["agents"]}
    searcher, greedy = rows["montecarlo:7i"], rows["greedy"]
    assert 3 <= searcher["iterations_per_move"] <= 7
    assert searcher["cpu_seconds_per_move"] > 0
    assert searcher["iterations_per_cpu_second"] > 0
    assert greedy["iterations_per_move"] is None and greedy["iterations_per_cpu_second"] is None
