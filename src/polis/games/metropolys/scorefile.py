"""End-of-game position files (formats §2.2): validated into an :class:`EndPosition`.

A file typed by a person gets every check a finished game guarantees that can be seen in
the file itself, and each failure is an InputError naming what is wrong: the pieces in the
box, and what no game can reach (:func:`check_reachable`: tokens only from buildings, the
cards with the tokens that move them, one player with all 13 buildings at most). A position
before the end is scored as if the game ended there, so nobody needs to have built 13.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from polis.core.errors import InputError
from polis.games.metropolys.board import (
    CENTER_TOKENS,
    DEAD_ENDS,
    DISTRICT,
    DISTRICTS,
    NUM_FIELDS,
    PERIPHERAL_TOKENS,
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
    check_reachable(built, tokens, metro, arch)
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


def _players(group: Sequence[int]) -> str:
    if len(group) == 1:
        return f"player {group[0]}"
    return f"players {', '.join(map(str, group[:-1]))} and {group[-1]}"


def _token_room(built: Sequence[Sequence[tuple[int, int]]], group: Sequence[int]) -> int:
    """How many tokens the buildings of ``group`` can have collected: one a field, none on
    a dead end, at most 7 in the center and 5 in each other district (rules §4, §6)."""
    per_district = [0] * len(DISTRICTS)
    for p in group:
        for field, _value in built[p]:
            if field not in DEAD_ENDS:
                per_district[DISTRICT[field]] += 1
    return sum(
        min(n, CENTER_TOKENS if d == 0 else PERIPHERAL_TOKENS) for d, n in enumerate(per_district)
    )


def check_reachable(
    built: Sequence[Sequence[tuple[int, int]]],
    tokens: Sequence[tuple[int, int, int]],
    metro_card: int | None,
    archaeology_card: int | None,
) -> None:
    """InputError, naming the rule, unless some game can reach these buildings, tokens and
    cards. Each check is one a game keeps at every moment (rules §4-§7):

    * a token is taken only by building on its field, one token a field, none on a dead end,
      7 in the center and 5 in each other district: so every group of players holds at most
      as many tokens as their buildings can have collected (each group checked, the sum over
      districts of the buildings there that are not dead ends, capped at the district's
      tokens: Hall's condition, so the check is exact);
    * the metro card is nobody's until a metro token is taken, then it goes to whoever has
      strictly more metro tokens than its holder: its holder has the most;
    * the archaeology card is nobody's until an archaeology token is taken, then it follows
      the latest one taken: its holder has one;
    * the game ends as soon as a player builds his 13th building: one player at most.
    """
    players = len(built)
    for size in range(1, players + 1):
        for group in combinations(range(players), size):
            held = sum(sum(tokens[p]) for p in group)
            room = _token_room(built, group)
            if held > room:
                n = sum(len(built[p]) for p in group)
                raise InputError(
                    f"{_players(group)} {'hold' if size > 1 else 'holds'} {held} "
                    f"token{'' if held == 1 else 's'}, but "
                    f"their {n} building{'' if n == 1 else 's'} can have collected at most "
                    f"{room}: a token is taken only by building on its field, one token a "
                    "field, none on a dead end, 7 in the center and 5 in each other district "
                    "(rules §4, §6)"
                )
    metro = [t[1] for t in tokens]
    if metro_card is None and any(metro):
        raise InputError(
            "nobody holds the metro card, but metro tokens were taken: the first player to "
            "take a metro token takes the card (rules §6)"
        )
    if metro_card is not None:
        if not any(metro):
            raise InputError(
                f"player {metro_card} holds the metro card, but nobody holds a metro token: "
                "the card comes into play with the first metro token taken (rules §6)"
            )
        most = max(range(players), key=lambda p: (metro[p], -p))
        if metro[most] > metro[metro_card]:
            raise InputError(
                f"player {metro_card} holds the metro card with {metro[metro_card]} metro "
                f"token{'' if metro[metro_card] == 1 else 's'}, but player {most} has "
                f"{metro[most]}: the card goes to whoever has strictly more metro tokens than "
                "its holder (rules §6)"
            )
    digs = [t[2] for t in tokens]
    if archaeology_card is None and any(digs):
        raise InputError(
            "nobody holds the archaeology card, but archaeology tokens were taken: the card "
            "goes to whoever took an archaeology token last (rules §6)"
        )
    if archaeology_card is not None and not digs[archaeology_card]:
        raise InputError(
            f"player {archaeology_card} holds the archaeology card without an archaeology "
            "token: the card goes to whoever took an archaeology token last (rules §6)"
        )
    finished = [p for p in range(players) if len(built[p]) == len(VALUES)]
    if len(finished) > 1:
        raise InputError(
            f"{_players(finished)} have each built all {len(VALUES)} buildings, but the game "
            "ends as soon as one player builds his last (rules §7)"
        )


def score_file(data: Mapping[str, Any]) -> dict[str, Any]:
    """``polis score`` for a formats.md §2.2 end position: the §2.3 report."""
    return score_report(parse_end_position(data))
