"""Views, text rendering and result JSON: complete for drawing, silent about secrets."""

from __future__ import annotations

import json
import random
import re

import pytest
from metro_helpers import new_state

from polis.core import get_game
from polis.core.errors import InputError, RecordError
from polis.games.metropolys.board import board_json
from polis.games.metropolys.game import GAME

VIEW_KEYS = {
    "game", "mode", "players", "player", "current_player", "terminal", "moves", "first_player",
    "start_player", "unused_districts", "layout", "options", "fields", "bid", "bids", "passed",
    "supplies", "built", "tokens_collected", "metro_card", "archaeology_card", "running_score",
    "area_card", "neighbourhood_card",
}  # fmt: skip


def test_registry_finds_the_engine() -> None:
    assert get_game("metropolys") is GAME
    assert GAME.modes == ("family", "expert")


def test_view_shows_the_round() -> None:
    state = new_state(
        "expert", 3, unused=["west"], first=1, tokens={0: "chic"}, avoid=[2, 3],
        area=["chains", "lakes", "bridges"], colours=["red", "gray", "blue"],
    )  # fmt: skip
    state.apply_str("3@0")
    state.apply_str("5@2")
    state.apply_str("pass")
    typed = state.view(2)
    assert typed.current_player == 1 and typed.start_player == 1 and typed.player == 2
    assert typed.bids == (0, 2) and typed.passed == 0b1
    assert typed.building_at(0) == (1, 3, False) and typed.building_at(2) == (2, 5, False)
    assert 3 not in typed.supply(1) and 5 not in typed.supply(2)
    assert (typed.area_card, typed.neighbourhood_card) == ("bridges", "blue")
    assert typed.moves == tuple(state.history) and not typed.finished
    assert typed.revealed is None and typed.result is None
    view = typed.to_json()
    assert set(view) == VIEW_KEYS
    assert view["current_player"] == 1 and view["start_player"] == 1
    assert view["bid"] == {"field": 2, "value": 5, "player": 2}
    assert [b["field"] for b in view["bids"]] == [0, 2]
    assert view["passed"] == [0]
    assert view["fields"][0]["building"] == {"player": 1, "value": 3, "built": False}
    # bids are not built: nothing scores yet (the chic token on field 0 is still lying there)
    assert [r["total"] for r in view["running_score"]] == [0, 0, 0]
    assert view["fields"][0]["token"] == "chic"
    assert view["fields"][47]["in_play"] is False
    assert 3 not in view["supplies"][1] and 5 not in view["supplies"][2]
    assert view["area_card"] == "bridges" and view["neighbourhood_card"] == "blue"
    assert view["moves"] == ["3@0", "5@2", "pass"]
    assert view["layout"] == state.setup()["tokens"]
    json.dumps(view)
    spectator = state.view(None)
    assert spectator.area_card is None and spectator.neighbourhood_card is None
    assert spectator.to_json()["area_card"] is None
    assert spectator.to_json()["neighbourhood_card"] is None
    with pytest.raises(InputError):
        state.view(3)


def test_render_text_shows_only_own_cards() -> None:
    state = new_state(
        "expert", 3, unused=["west"], first=0, tokens={0: "chic"},
        area=["chains", "lakes", "bridges"], colours=["red", "gray", "blue"],
    )  # fmt: skip
    state.apply_str("3@0")
    text = state.render_text(1)
    # Wording is the terminal's; the facts are not: the bid, the unused district, own cards.
    assert re.search(r"\bbids?\b.*\b(3 on (field )?0|A 3@0)\b", text, re.IGNORECASE)
    assert re.search(r"\bwest\b:? +not (in play|used)", text, re.IGNORECASE)
    # own cards in the catalogue's words: Lakes, the gray (industry) neighbourhood
    assert "lakes" in text.lower() and "industry" in text.lower()
    assert "chains" not in text.lower() and "bridges" not in text.lower()
    spectator = state.render_text(None).lower()
    assert re.search(r"\bbids?\b.*\b(3 on (field )?0|A 3@0)\b", spectator, re.IGNORECASE)
    assert not any(card in spectator for card in ("chains", "lakes", "bridges", "industry"))
    assert "objective" not in spectator and "secret" not in spectator


def test_result_json_and_record() -> None:
    state = GAME.new_game("expert", 4, seed=8)
    rng = random.Random(8)
    while not state.is_terminal():
        state.apply(state.random_move(rng))
    result = state.result().to_json()
    assert result["game"] == "metropolys" and result["mode"] == "expert"
    assert len(result["players"]) == 4
    assert list(GAME.categories) == list(result["players"][0]["breakdown"])
    record = state.to_record(names=["a", "b", "c", "d"], seed=8)
    assert record["result"] == result
    # A finished view reveals every card and carries the result.
    view = state.view(None).to_json()
    assert set(view) == VIEW_KEYS | {"cards", "result"}
    assert view["result"] == result and view["terminal"] is True
    setup = record["setup"]
    assert view["cards"] == [
        {"area_card": a, "neighbourhood_card": n}
        for a, n in zip(setup["area_cards"], setup["neighbourhood_cards"], strict=True)
    ]
    assert set(record["setup"]) == {
        "first_player", "unused_districts", "tokens", "area_cards", "neighbourhood_cards",
    }  # fmt: skip
    assert GAME.from_record(record).result() == state.result()
    bad = dict(record, moves=[*record["moves"][:3], "13@99", *record["moves"][4:]])

    with pytest.raises(RecordError) as info:
        GAME.from_record(bad)
    assert info.value.move_index == 3


def test_clone_is_independent() -> None:
    state = GAME.new_game("family", 3, seed=2)
    copy = state.clone()
    state.apply(state.random_move(random.Random(0)))
    assert list(copy.history) == [] and len(state.history) == 1
    assert copy.view(None) != state.view(None)


def test_board_json_for_drawing() -> None:
    data = board_json()
    json.dumps(data)
    assert len(data["fields"]) == 55 and len(data["bridges"]) == 21
    assert data["fields"][11]["dead_end"] is True
