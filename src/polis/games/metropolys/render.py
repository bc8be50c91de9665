"""Metropolys as text: the board, a legend, move lists and narration, for 80-column terminals.

Drawn from a view (no hidden facts). Each field is one cell: its number, a ``+`` when it
counts for the viewer's own secret card, the token still lying there (``*`` chic +3,
``m`` metro +1, ``a`` archaeology -1) and the building on it: ``B7`` = B built a 7,
``b7`` = B bids 7 this round.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from polis.core.events import Event
from polis.games.metropolys.board import (
    ADJACENT,
    COLOUR,
    DISTRICT_FIELDS,
    DISTRICTS,
    ON_BRIDGE,
    ON_LAKE,
    ON_STATUE,
    OUTSKIRTS,
    TOKENS,
)
from polis.games.metropolys.moves import PASS, MetropolysMove
from polis.games.metropolys.view import MetropolysView
from polis.games.text import LETTERS, heading, scores_line, seat_names, wrap

TOKEN_MARK = {"chic": "*", "metro": "m", "archaeology": "a"}
CARD_WORDS = {
    "bridges": "buildings at a bridge",
    "statues": "buildings next to a statue",
    "lakes": "buildings at a lake",
    "outskirts": "buildings on the outskirts",
    "districts": "3 buildings in one district",
    "chains": "chains of 3 adjacent buildings",
}
LEGEND = (
    "Fields: 12 = field number, + = counts for your secret card; tokens * chic (+3),\n"
    "  m metro (+1), a archaeology (-1); B7 = B built a 7 there, b7 = B bids 7 now."
)


def _counts_for_me(view: MetropolysView, field: int) -> bool:
    """Does ``field`` count for the viewer's own area or neighbourhood card?"""
    card = view.area_card
    if (card == "bridges" and ON_BRIDGE[field]) or (card == "statues" and ON_STATUE[field]):
        return True
    if (card == "lakes" and ON_LAKE[field]) or (card == "outskirts" and field in OUTSKIRTS):
        return True
    return view.neighbourhood_card is not None and COLOUR[field] == view.neighbourhood_card


def field_cell(view: MetropolysView, field: int) -> str:
    """One field in at most 7 characters: ``12+*b13``."""
    text = f"{field:>2}" + ("+" if _counts_for_me(view, field) else " ")
    token = view.tokens[field]
    text += TOKEN_MARK[TOKENS[token - 1]] if token else " "
    building = view.building_at(field)
    if building is not None:
        owner, value, built = building
        letter = LETTERS[owner] if built else LETTERS[owner].lower()
        text += f"{letter}{value}"
    return text


def board(view: MetropolysView, names: Sequence[str] | None = None, width: int = 80) -> str:
    """Districts with their fields, the bids of this round, every player's supply."""
    who = seat_names(view, names)
    lines = [heading(f"Metropolys {view.mode}, {view.players} players", view, who)]
    per_line = (width - 8) // 8
    for d, name in enumerate(DISTRICTS):
        fields = DISTRICT_FIELDS[d]
        if view.cells[fields[0]] == -2:
            lines.append(f"{name.upper():<7} not in play")
            continue
        for i in range(0, len(fields), per_line):
            label = name.upper() if i == 0 else ""
            cells = "".join(field_cell(view, f).ljust(8) for f in fields[i : i + per_line])
            lines.append(f"{label:<8}{cells}".rstrip())
    if view.bids:
        chain = " -> ".join(
            f"{LETTERS[view.cells[f] >> 4]} {view.cells[f] & 15} on {f}" for f in view.bids
        )
        lines.append(f"Bids: {chain}")
        passed = [LETTERS[p] for p in range(view.players) if view.passed >> p & 1]
        if passed:
            lines.append("Passed: " + " ".join(passed))
    for p in range(view.players):
        got = view.collected[p * 4 : p * 4 + 4]
        cards = [
            c for c, h in (("metro", view.metro_card), ("arch.", view.archaeology_card)) if h == p
        ]
        supply = " ".join(map(str, view.supply(p))) or "-"
        lines.append(
            f"{LETTERS[p]} {who[p][:10]:<10} {supply:<29} built {view.built[p]:>2} "
            f"*{got[1]} m{got[2]} a{got[3]}" + (f" {'+'.join(cards)} card" if cards else "")
        )
    if view.area_card is not None:
        own = f"Your secret card: {view.area_card} ({CARD_WORDS[view.area_card]})"
        if view.neighbourhood_card is not None:
            own += f", colour {view.neighbourhood_card}"
        lines.append(own)
    if view.result is not None:
        lines.append(scores_line(view.result.scores))
    return "\n".join(lines)


def render_text(view: MetropolysView) -> str:
    """The position as plain text (80 columns), seats named by letter."""
    return board(view)


# -- the terminal game's helpers --------------------------------------------------------------


def moves_text(view: MetropolysView, legal: Sequence[MetropolysMove], query: str = "") -> str:
    """The legal moves compactly: each field with the values that may go there (a query
    like ``12`` shows one field and its neighbours)."""
    fields: dict[int, list[int]] = {}
    for m in legal:
        if m is not PASS:
            fields.setdefault(m.field, []).append(m.value)
    query = query.strip()
    if query.isdigit():
        f = int(query)
        near = " ".join(str(g) for g in ADJACENT[f])
        values = " ".join(map(str, fields.get(f, []))) or "none"
        return f"field {f} ({COLOUR[f]}): values {values}; adjacent fields: {near}"
    if not fields:
        return "pass is the only move"
    rows = {tuple(v) for v in fields.values()}
    lines = []
    if len(rows) == 1:
        (same,) = rows
        lines.append(f"values {' '.join(map(str, same))} on any of these fields:")
        lines.append(" ".join(map(str, sorted(fields))))
    else:
        lines += [f"{f}: {' '.join(map(str, v))}" for f, v in sorted(fields.items())]
    if PASS in legal:
        lines.append("or pass")
    return "\n".join(wrap(" | ".join(lines) if len(lines) > 8 else "\n".join(lines), 80))


def example(view: MetropolysView, legal: Sequence[MetropolysMove]) -> str:
    """A move to show in the prompt: a bid from the middle of the list, else pass."""
    bids = [m for m in legal if m is not PASS]
    return str(bids[len(bids) // 2]) if bids else "pass"


def prompt_help(view: MetropolysView) -> str:
    """What to type, and where a raise may go."""
    if view.bids:
        last = view.bids[-1]
        value = view.cells[last] & 15
        return f"<value>@<field> above {value}, next to field {last}; or pass"
    return "<value>@<field> (your opening bid)"


def narrate(event: Event, names: Sequence[str]) -> str | None:
    """One line for a person reading the game; None for events a terminal need not print."""
    p: dict[str, Any] = dict(event.params)
    who = f"{LETTERS[p['player']]} {names[p['player']]}" if "player" in p else ""
    key = event.key
    if key == "bid_placed":
        return f"{who} opens with a {p['value']} on field {p['field']}"
    if key == "bid_raised":
        return f"{who} raises to {p['value']} on field {p['field']} (next to {p['over_field']})"
    if key == "player_passed":
        return f"{who} passes"
    if key == "bid_won":
        why = {
            "all_passed": "everybody else passed",
            "no_free_neighbour": "no free field next to it",
            "nobody_higher": "nobody has a higher building",
        }[p["reason"]]
        return f"{who} wins the round and builds the {p['value']} on field {p['field']} ({why})"
    if key == "token_collected":
        return f"{who} collects the {p['token']} token of field {p['field']}"
    if key == "card_changed_hands":
        return f"{who} takes the {p['card']} card"
    if key == "round_started":
        return f"--- round {p['round']}: {who} opens ---"
    if key == "game_ended":
        cards = ", ".join(
            f"{LETTERS[c['player']]} {c['area_card']}"
            + (f"/{c['neighbourhood_card']}" if c.get("neighbourhood_card") else "")
            for c in p["cards"]
        )
        return f"--- the game is over; secret cards: {cards} ---"
    if key == "cards_dealt":
        return None
    return None


__all__ = ["LEGEND", "board", "example", "moves_text", "narrate", "render_text"]
