"""The scoring pad: every player's categories and total as the printed pad's table.

Rows come from the game (``game.categories``); their labels from the game's catalogue
(``cat.<category>``, the web score pad's, the words the board and the narration use), in
English unless another language is asked for; the game's own labels only where its
catalogue has none; the numbers from :class:`~polis.core.result.PlayerScore` lines, so no key
is guessed here.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from polis.cli.text import game_wording
from polis.core.protocol import Game
from polis.core.result import PlayerScore
from polis.core.wording import DEFAULT


def pad_table(
    game: Game,
    mode: str,
    players: Sequence[PlayerScore],
    names: Sequence[str] | None = None,
    ranking: Sequence[Sequence[int]] | None = None,
    lang: str = DEFAULT,
) -> Table:
    """A Rich table of the scoring pad: one column per player (or one for a lone city),
    worded in ``lang`` from the game's catalogue."""
    labels = dict(game.categories)
    total, place, title = "Total", "Place", f"{game.title} ({mode})"
    say = game_wording(game, lang)
    if say is not None:
        labels = {k: say(f"cat.{k}") if say.message(f"cat.{k}") else v for k, v in labels.items()}
        mode_name = say(f"mode.{mode}") if say.message(f"mode.{mode}") else mode
        total, place = say("term.pad.total"), say("term.pad.place")
        title = say("term.pad.title", title=game.title, mode=mode_name)
    if names:
        heads = list(names)
    elif len(players) == 1:
        heads = ["Score"]
    else:
        heads = [f"Player {i + 1}" for i in range(len(players))]
    table = Table(title=title)
    table.add_column("")
    for head in heads:
        table.add_column(head, justify="right")
    for key, label in labels.items():
        table.add_row(label, *(str(p.categories.get(key, 0)) for p in players))
    table.add_section()
    table.add_row(total, *(str(p.total) for p in players), style="bold")
    if ranking is not None:
        places: dict[int, int] = {}
        for group in ranking:
            places.update((p, len(places) + 1) for p in group)
        table.add_row(place, *(str(places.get(i, "")) for i in range(len(players))))
    return table


def print_pad(
    game: Game,
    mode: str,
    players: Sequence[PlayerScore],
    names: Sequence[str] | None = None,
    ranking: Sequence[Sequence[int]] | None = None,
    console: Console | None = None,
    lang: str = DEFAULT,
) -> None:
    (console or Console()).print(pad_table(game, mode, players, names, ranking, lang))
