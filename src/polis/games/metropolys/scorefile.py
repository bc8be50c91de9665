"""End-of-game position files (formats §2.2): validated into an :class:`EndPosition`.

A file typed by a person gets every check a finished game guarantees that can be seen in
the file itself, and each failure is an InputError naming what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from polis.core.errors import InputError
from polis.games.metropolys.board import (
    DISTRICT,
    DISTRICTS,
    NUM_FIELDS,
    TOKEN_COUNTS,
    TOKENS,
    VALUES,
)
from polis.games.metropolys.cards import NEIGHBOURHOOD_CARDS, area_deck
from polis.games.metropolys.options import parse_options
from polis.games.metropolys.scoring import EndPosition, score_report
from polis.games.metropolys.setup import check_cards, check_mode_players, check_unused

KNOWN_KEYS = frozenset(
    {
        "game",
        "mode",
        "players",
        "unused_districts",
        "buildings",
        "tokens",
        "metro_card",
        "archaeology_card",
        "area_cards",
        "neighbourhood_cards",
        "options",
    }
)


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be a whole number, not {value!r}")
    return value


def _holder(data: Mapping[str, Any], key: str, players: int) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    holder = _int(value, key)
    if not 0 <= holder < players:
        raise InputError(f"{key} must be a player index 0-{players - 1} or null, not {holder}")
    return holder


def parse_end_position(data: Mapping[str, Any]) -> EndPosition:
    """Validate an end-position file and return what the scorer needs."""
    if not isinstance(data, Mapping):
        raise InputError("an end position must be a JSON object")
    if data.get("game") != "metropolys":
        raise InputError(f"not a Metropolys end position (game = {data.get('game')!r})")
    for key in data:
        if key not in KNOWN_KEYS:
            raise InputError(f"unknown key {key!r} in the end position")
    for key in ("mode", "players", "buildings", "tokens", "area_cards"):
        if key not in data:
            raise InputError(f"the end position has no {key!r}")
    mode, players = check_mode_players(data["mode"], data["players"])
    unused = check_unused(players, data.get("unused_districts", []))
    unused_codes = frozenset(DISTRICTS.index(d) for d in unused)
    options = parse_options(data.get("options"))

    raw = data["buildings"]
    if not isinstance(raw, list):
        raise InputError("buildings must be a list of {player, field, value}")
    owner_of: dict[int, int] = {}
    built: list[list[tuple[int, int]]] = [[] for _ in range(players)]
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping) or set(item) != {"player", "field", "value"}:
            raise InputError(f"building {i} must be an object with player, field and value")
        p = _int(item["player"], f"building {i} player")
        f = _int(item["field"], f"building {i} field")
        v = _int(item["value"], f"building {i} value")
        if not 0 <= p < players:
            raise InputError(f"building {i}: no player {p} in a {players}-player game")
        if not 0 <= f < NUM_FIELDS:
            raise InputError(f"building {i}: unknown field {f} (fields are 0-54)")
        if not 1 <= v <= 13:
            raise InputError(f"building {i}: there is no building of value {v} (values are 1-13)")
        if DISTRICT[f] in unused_codes:
            raise InputError(
                f"building {i}: field {f} is in the {DISTRICTS[DISTRICT[f]]} district, "
                "which is not in play"
            )
        if f in owner_of:
            raise InputError(f"field {f} holds two buildings; a field takes one building")
        if any(value == v for _, value in built[p]):
            raise InputError(f"player {p} has built value {v} twice; each value exists once")
        owner_of[f] = p
        built[p].append((f, v))
    for p, b in enumerate(built):
        if len(b) > 13:
            raise InputError(f"player {p} has {len(b)} buildings; a player has 13")

    toks = data["tokens"]
    if not isinstance(toks, list) or len(toks) != players:
        raise InputError("tokens must list one {chic, metro, archaeology} object per player")
    tokens: list[tuple[int, int, int]] = []
    for p, item in enumerate(toks):
        if not isinstance(item, Mapping) or not set(item) <= set(TOKENS):
            raise InputError(
                f"tokens of player {p} must be an object with chic, metro, archaeology"
            )
        counts = tuple(_int(item.get(name, 0), f"player {p}'s {name} tokens") for name in TOKENS)
        if min(counts) < 0:
            raise InputError(f"player {p} cannot hold a negative number of tokens")
        if sum(counts) > len(VALUES):
            raise InputError(
                f"player {p} holds {sum(counts)} tokens, but a player's {len(VALUES)} buildings "
                "collect at most one token each"
            )
        tokens.append((counts[0], counts[1], counts[2]))
    for i, name in enumerate(TOKENS):
        total = sum(t[i] for t in tokens)
        if total > TOKEN_COUNTS[players][name]:
            raise InputError(
                f"the players hold {total} {name} tokens, but a {players}-player game uses only "
                f"{TOKEN_COUNTS[players][name]}"
            )

    metro = _holder(data, "metro_card", players)
    arch = _holder(data, "archaeology_card", players)
    area = check_cards(data["area_cards"], area_deck(mode, players), players, "area_cards")
    neighbourhood: tuple[str, ...] | None = None
    if mode == "expert":
        if "neighbourhood_cards" not in data:
            raise InputError("an Expert end position needs neighbourhood_cards")
        neighbourhood = check_cards(
            data["neighbourhood_cards"], NEIGHBOURHOOD_CARDS, players, "neighbourhood_cards"
        )
    elif data.get("neighbourhood_cards") is not None:
        raise InputError("neighbourhood cards are used only in the Expert version")
    return EndPosition(
        mode=mode,
        players=players,
        unused=unused_codes,
        buildings=tuple(tuple(b) for b in built),
        tokens=tuple(tokens),
        metro_card=metro,
        archaeology_card=arch,
        area_cards=area,
        neighbourhood_cards=neighbourhood,
        options=options,
    )


def score_file(data: Mapping[str, Any]) -> dict[str, Any]:
    """``polis score`` for a formats.md §2.2 end position: the §2.3 report."""
    return score_report(parse_end_position(data))
