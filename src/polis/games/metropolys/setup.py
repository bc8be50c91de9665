"""The set-up of a game (formats §3): drawn from a seeded ``random.Random`` or validated.

Every chance outcome of Metropolys happens before the first bid: which districts are left
out (2-3 players), where the tokens lie, who gets which secret card and who opens. A given
set-up may fix any of these; the missing parts are drawn from the seed, always in the same
order (unused districts, tokens, area cards, neighbourhood cards, first player) so a seed
alone reproduces a game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from polis.core.errors import InputError
from polis.core.protocol import check_table
from polis.games.metropolys.board import (
    ADJACENT_PERIPHERAL_PAIRS,
    CENTER_TOKENS,
    DEAD_ENDS,
    DISTRICT,
    DISTRICTS,
    NUM_FIELDS,
    PERIPHERAL,
    PERIPHERAL_TOKENS,
    TOKEN_COUNTS,
    TOKEN_FIELDS,
    TOKENS,
)
from polis.games.metropolys.cards import MODES, NEIGHBOURHOOD_CARDS, area_deck

if TYPE_CHECKING:
    from polis.games.metropolys.view import MetropolysView

SETUP_KEYS: Final = (
    "first_player",
    "unused_districts",
    "tokens",
    "area_cards",
    "neighbourhood_cards",
)


@dataclass(frozen=True, slots=True)
class Setup:
    """A complete, validated set-up. ``tokens`` holds a token code (0 = none) per field."""

    mode: str
    players: int
    first_player: int
    unused: tuple[str, ...]
    tokens: tuple[int, ...]
    area_cards: tuple[str, ...]
    neighbourhood_cards: tuple[str, ...] | None

    @property
    def unused_codes(self) -> frozenset[int]:
        return frozenset(DISTRICTS.index(d) for d in self.unused)

    def to_json(self) -> dict[str, Any]:
        """The formats §3 ``setup`` object (hidden cards included)."""
        out: dict[str, Any] = {
            "first_player": self.first_player,
            "unused_districts": list(self.unused),
            "tokens": {str(f): TOKENS[c - 1] for f, c in enumerate(self.tokens) if c},
            "area_cards": list(self.area_cards),
        }
        if self.neighbourhood_cards is not None:
            out["neighbourhood_cards"] = list(self.neighbourhood_cards)
        return out


def check_mode_players(mode: object, players: object) -> tuple[str, int]:
    """The mode and player count, or InputError."""
    return check_table("Metropolys", MODES, mode, players)


# -- drawing ---------------------------------------------------------------------------------


def draw_unused(players: int, rng: random.Random) -> tuple[str, ...]:
    """R13: 3 players leave out one peripheral district, 2 players an adjacent pair."""
    if players == 4:
        return ()
    if players == 3:
        return (rng.choice(PERIPHERAL),)
    return _ordered(rng.choice(ADJACENT_PERIPHERAL_PAIRS))


def draw_tokens(players: int, unused: tuple[str, ...], rng: random.Random) -> tuple[int, ...]:
    """R19: shuffle the tokens for the player count; 7 to the center, 5 to each district."""
    bag = [
        code
        for code, name in enumerate(TOKENS, start=1)
        for _ in range(TOKEN_COUNTS[players][name])
    ]
    rng.shuffle(bag)
    layout = [0] * NUM_FIELDS
    pos = 0
    for d, name in enumerate(DISTRICTS):
        if name in unused:
            continue
        count = CENTER_TOKENS if d == 0 else PERIPHERAL_TOKENS
        for f in rng.sample(TOKEN_FIELDS[d], count):
            layout[f] = bag[pos]
            pos += 1
    assert pos == len(bag)
    return tuple(layout)


def _ordered(names: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(sorted(names, key=DISTRICTS.index))


# -- validating ------------------------------------------------------------------------------


def check_unused(players: int, value: object) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise InputError("unused_districts must be a list of district names")
    for name in value:
        if name not in DISTRICTS:
            raise InputError(f"unknown district {name!r} (north, east, south or west)")
        if name == "center":
            raise InputError("the center is always in play; only peripheral districts are unused")
    names = _ordered(list(value))
    if len(set(names)) != len(names):
        raise InputError("unused_districts names a district twice")
    if players == 4 and names:
        raise InputError("with 4 players every district is in play")
    if players == 3 and len(names) != 1:
        raise InputError("with 3 players exactly one peripheral district is unused")
    if players == 2:
        if len(names) != 2:
            raise InputError("with 2 players two adjacent peripheral districts are unused")
        if not any(set(pair) == set(names) for pair in ADJACENT_PERIPHERAL_PAIRS):
            raise InputError(
                f"with 2 players the unused districts must be adjacent (N-E, E-S, S-W or W-N), "
                f"not {names[0]} and {names[1]}"
            )
    return names


def _check_tokens(players: int, unused: tuple[str, ...], value: object) -> tuple[int, ...]:
    if not isinstance(value, Mapping):
        raise InputError("tokens must be an object of field id -> chic/metro/archaeology")
    layout = [0] * NUM_FIELDS
    for key, name in value.items():
        field = _field_id(key)
        if name not in TOKENS:
            raise InputError(f"unknown token {name!r} on field {field} (chic, metro, archaeology)")
        district = DISTRICTS[DISTRICT[field]]
        if district in unused:
            raise InputError(f"field {field} is in the {district} district, which is not in play")
        if field in DEAD_ENDS:
            raise InputError(f"field {field} is a dead end: no token may be placed there")
        if layout[field]:
            raise InputError(f"field {field} holds two tokens; at most one token goes on a field")
        layout[field] = TOKENS.index(name) + 1
    for code, name in enumerate(TOKENS, start=1):
        want = TOKEN_COUNTS[players][name]
        have = layout.count(code)
        if have != want:
            raise InputError(
                f"with {players} players the layout uses {want} {name} tokens, not {have}"
            )
    for d, name in enumerate(DISTRICTS):
        if name in unused:
            continue
        want = CENTER_TOKENS if d == 0 else PERIPHERAL_TOKENS
        have = sum(1 for f in TOKEN_FIELDS[d] if layout[f])
        if have != want:
            place = "the center" if d == 0 else f"the {name} district"
            raise InputError(f"{place} must hold {want} tokens, not {have}")
    return tuple(layout)


def _field_id(key: object) -> int:
    text = str(key)
    if not text.isdigit() or not 0 <= int(text) < NUM_FIELDS:
        raise InputError(f"unknown field {key!r} (fields are 0-54)")
    return int(text)


def check_cards(value: object, deck: tuple[str, ...], players: int, what: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise InputError(f"{what} must be a list of card names, one per player")
    if len(value) != players:
        raise InputError(f"{what} must give one card to each of the {players} players")
    for name in value:
        if name not in deck:
            if name == "outskirts" and deck == area_deck("family", 2):
                raise InputError("the outskirts area card is not used in the Family 2-player game")
            raise InputError(f"unknown card {name!r} in {what} (one of {', '.join(deck)})")
    if len(set(value)) != len(value):
        raise InputError(f"{what} deals the same card twice; each card exists once")
    return tuple(value)


def make_setup(
    mode: str,
    players: int,
    rng: random.Random,
    given: Mapping[str, Any] | None = None,
) -> Setup:
    """The set-up: ``given`` parts validated, missing parts drawn from ``rng`` in a fixed order."""
    mode, players = check_mode_players(mode, players)
    given = {} if given is None else given
    if not isinstance(given, Mapping):
        raise InputError("setup must be an object")
    for key in given:
        if key not in SETUP_KEYS:
            raise InputError(f"unknown set-up key {key!r} (known: {', '.join(SETUP_KEYS)})")
    if "unused_districts" in given:
        unused = check_unused(players, given["unused_districts"])
    else:
        unused = draw_unused(players, rng)
    if "tokens" in given:
        tokens = _check_tokens(players, unused, given["tokens"])
    else:
        tokens = draw_tokens(players, unused, rng)
    deck = area_deck(mode, players)
    if "area_cards" in given:
        area = check_cards(given["area_cards"], deck, players, "area_cards")
    else:
        area = tuple(rng.sample(deck, players))
    neighbourhood: tuple[str, ...] | None = None
    if mode == "expert":
        if "neighbourhood_cards" in given:
            neighbourhood = check_cards(
                given["neighbourhood_cards"], NEIGHBOURHOOD_CARDS, players, "neighbourhood_cards"
            )
        else:
            neighbourhood = tuple(rng.sample(NEIGHBOURHOOD_CARDS, players))
    elif given.get("neighbourhood_cards") is not None:
        raise InputError("neighbourhood cards are used only in the Expert version")
    if "first_player" in given:
        first = given["first_player"]
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
            raise InputError(f"first_player must be a player index 0-{players - 1}, not {first!r}")
    else:
        first = rng.randrange(players)
    return Setup(mode, players, first, unused, tokens, area, neighbourhood)


def public_setup(
    view: MetropolysView, area_cards: Sequence[str], neighbourhood_cards: Sequence[str] | None
) -> Setup:
    """The set-up a view shows (districts, tokens, opener) with the given secret cards."""
    return Setup(
        view.mode,
        view.players,
        view.first_player,
        view.unused_districts,
        view.layout,
        tuple(area_cards),
        tuple(neighbourhood_cards) if neighbourhood_cards is not None else None,
    )
