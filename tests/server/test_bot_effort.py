"""A bot worker says what each decision cost (search iterations, CPU seconds), and the pool
counts it: how much a bot thought, which its time budget alone no longer says."""

from __future__ import annotations

import pickle

from polis.bots import Budget, make_agent
from polis.server.bots.pool import record_effort
from polis.server.bots.worker import BotHost
from toygame import GAME


def decide(host: BotHost, blob: bytes | None) -> tuple[object, ...]:
    state = GAME.new_game("basic", 2, seed=3)
    answer = host.handle(("decide", ("g", 0), blob, GAME, state.view(0), state.legal_moves()))
    assert answer is not None
    return answer


def test_a_decision_answers_its_iterations_and_cpu_time() -> None:
    host = BotHost()
    agent, _ = make_agent("mcts:25i", 1)
    first = decide(host, pickle.dumps((agent, Budget(iterations=25))))
    assert first[0] == "move"
    effort = first[2]
    assert isinstance(effort, dict)
    assert effort["iterations"] == 25 and effort["capped"] == 0
    assert effort["cpu_seconds"] > 0
    # the next decision of the same seat: its own iterations, not the sum so far
    second = decide(host, None)
    assert second[0] == "move" and second[2]["iterations"] == 25  # type: ignore[index]
    stats = {"iterations": 0, "cpu_seconds": 0.0, "capped": 0}
    for answer in (first, second):
        record_effort(stats, ("g", 0), answer[2])  # type: ignore[arg-type]
    assert stats["iterations"] == 50


class FirstMove:
    """An agent that keeps no counters."""

    name = "first"

    def act(self, view: object, legal: list[object], game: object, budget: Budget) -> object:
        return legal[0]


def test_an_agent_without_counters_answers_no_effort() -> None:
    host = BotHost()
    answer = decide(host, pickle.dumps((FirstMove(), Budget(iterations=1))))
    assert answer[0] == "move" and answer[2] is None
    stats = {"iterations": 0, "cpu_seconds": 0.0, "capped": 0}
    record_effort(stats, ("g", 0), None)
    assert stats["iterations"] == 0
