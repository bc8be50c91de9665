"""Tournaments between agents: fair seating, local or Ray workers, statistics and ratings."""

from polis.arena.match import Outcome, play_table
from polis.arena.runner import Tournament, run_tournament, summary
from polis.arena.schedule import Seating, schedule
from polis.arena.stats import mean_ci, summarise, wilson

__all__ = [
    "Outcome",
    "Seating",
    "Tournament",
    "mean_ci",
    "play_table",
    "run_tournament",
    "schedule",
    "summarise",
    "summary",
    "wilson",
]
