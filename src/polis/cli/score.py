"""``polis score``: an end position in, the score report out."""

from __future__ import annotations

from typing import Annotated

import typer

from polis.cli.common import echo_json, game_of, read_json, user_errors
from polis.cli.pad import print_pad
from polis.core.registry import get_game


def score(
    file: Annotated[
        str,
        typer.Argument(
            help="The game's score file (formats.md: a city, an end position); - = stdin."
        ),
    ],
    text: Annotated[bool, typer.Option("--text", help="Print the scoring pad as a table.")] = False,
) -> None:
    """Score a finished city or end position: the exact score report of formats.md.

    Example: polis score city.json --text
    """
    with user_errors():
        data = read_json(file)
        game = get_game(game_of(data))
        report = game.score_file(data)
    if text:
        ranking = report.get("ranking")
        print_pad(game, str(report.get("mode")), game.report_lines(report), ranking=ranking)
    else:
        echo_json(report)


def register(app: typer.Typer) -> None:
    app.command()(score)
