"""One set of terms on the board, in the narration and in the score table, each from the
game's catalogue (issue 43: the Metropolys board said "chic", "metro", "lakes" where the final
table said "Trendy neighbourhood tokens", "Subway tokens", "Area objective")."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from polis.cli.main import app
from polis.core import get_game
from polis.core.events import Event
from polis.core.wording import LANGUAGES
from polis.games.metropolys import render as metro_render
from polis.games.quadropolis import render as quadro_render
from polis.games.quadropolis.tiles import TYPE_CODE

runner = CliRunner()
NAMES = ["Anna", "Bert", "Cleo"]


def final_board(lang: str) -> str:
    """The last board of a seeded Metropolys Expert game (every card has been taken)."""
    state = get_game("metropolys").new_game("expert", 3, seed=6)
    rng = random.Random(6)
    while not state.is_terminal():
        state.apply(rng.choice(list(state.legal_moves())))
        if state.view(0).metro_card >= 0 and state.view(0).archaeology_card >= 0:
            return metro_render.board(state.view(0), NAMES, 80, lang)
    raise AssertionError("no board with both cards held")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_metropolys_tokens_and_cards_have_one_name(lang: str) -> None:
    say = metro_render.wording(lang)
    legend = " ".join(metro_render.legend(lang).split())
    board = final_board(lang)
    for token in ("chic", "metro", "archaeology"):
        name = say(f"token.{token}")
        assert name in legend  # the legend names the sign as the narration does
        told = metro_render.narrate(
            Event("token_collected", {"player": 1, "token": token}), NAMES, lang
        )
        assert told is not None and name in told
    for card in ("metroCard", "archaeologyCard"):
        assert f"{say(card)}: " in board  # not "subway", "arch."
    objectives = say("yourCards") + " " + say("cat.area") + ": "
    assert objectives in board
    assert say("cat.neighbourhood") in board  # the score table's words


def test_the_scoring_pad_uses_the_catalogue_not_the_games_own_labels(tmp_path: Path) -> None:
    position = {
        "game": "metropolys",
        "mode": "family",
        "players": 2,
        "unused_districts": ["south", "west"],
        "buildings": [
            {"player": 0, "field": 22, "value": 13},
            {"player": 1, "field": 3, "value": 2},
        ],
        "tokens": [
            {"chic": 1, "metro": 0, "archaeology": 0},
            {"chic": 0, "metro": 0, "archaeology": 0},
        ],
        "metro_card": None,
        "archaeology_card": None,
        "area_cards": ["bridges", "statues"],
    }
    path = tmp_path / "m.json"
    path.write_text(json.dumps(position), encoding="utf-8")
    result = runner.invoke(app, ["score", "--text", str(path)], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    say = metro_render.wording("en")
    for category in ("chic", "metro", "metro_card", "archaeology_card", "area"):
        assert say(f"cat.{category}") in result.output
    assert "Trendy neighbourhood tokens" not in result.output  # the game's own label


@pytest.mark.parametrize("lang", LANGUAGES)
def test_quadropolis_buildings_have_one_name(lang: str) -> None:
    say = quadro_render.wording(lang)
    legend = " ".join(quadro_render.legend(lang).split())
    for kind, code in TYPE_CODE.items():
        name = say(f"type.{kind}")
        assert f"{code} = {name}" in legend
        event = Event("tile_discarded", {"player": 0, "kind": kind, "code": code, "square": "r1c1"})
        told = quadro_render.narrate(event, NAMES, lang)
        assert told is not None and name in told
