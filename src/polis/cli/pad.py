"""The scoring pad: every player's categories and total as the printed pad's table.

Rows and their labels come from the game (``game.categories``, ``game.tie_breaks``); the
numbers from :class:`~polis.core.result.PlayerScore` lines, so no key is guessed here.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from polis.core.protocol import Game
from polis.core.result import PlayerScore


def pad_table(
    game: Game,
    mode: str,
    players: Sequence[PlayerScore],
    names: Sequence[str] | None = None,
    ranking: Sequence[Sequence[int]] | None = None,
) -> Table:
    """A Rich table of the scoring pad: one column per player (or one for a lone city)."""
    if names:
        heads = list(names)
    elif len(players) == 1:
        heads = ["Score"]
    else:
        heads = [f"Player {i + 1}" for i in range(len(players))]
    table = Table(title=f"{game.title} ({mode})")
    table.add_column("")
    for head in heads:
        table.add_column(head, justify="right")
    for key, label in game.categories.items():
        table.add_row(label, *(str(p.categories.get(key, 0)) for p in players))
    table.add_section()
    table.add_row("Total", *(str(p.total) for p in players), style="bold")
    if ranking is not None:
        places: dict[int, int] = {}
        for group in ranking:
            places.update((p, len(places) + 1) for p in group)
        table.add_row("Place", *(str(places.get(i, "")) for i in range(len(players))))
    return table


def print_pad(
    game: Game,
    mode: str,
    players: Sequence[PlayerScore],
    names: Sequence[str] | None = None,
    ranking: Sequence[Sequence[int]] | None = None,
    console: Console | None = None,
) -> None:
    (console or Console()).print(pad_table(game, mode, players, names, ranking))
