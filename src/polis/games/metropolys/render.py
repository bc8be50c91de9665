"""A plain-text picture of a Metropolys position, drawn from a view (no hidden facts)."""

from __future__ import annotations

from polis.games.metropolys.board import COLOUR, DISTRICT_FIELDS, DISTRICTS, FIELD_TYPE, TOKENS
from polis.games.metropolys.view import MetropolysView

_TOKEN_MARK = {"chic": "chic(+3)", "metro": "metro(+1)", "archaeology": "arch(-1)"}


def _who(player: int, viewer: int | None) -> str:
    return "you" if player == viewer else f"P{player + 1}"


def render_text(view: MetropolysView) -> str:
    """Fields by district (colour, token, building), the current bid, supplies, own cards."""
    lines: list[str] = []
    n = view.players
    me = view.player
    head = f"Metropolys ({view.mode}, {n} players)"
    if view.finished:
        head += " - game over"
    else:
        head += f" - P{view.current_player + 1} to move, round opened by P{view.start_player + 1}"
    lines.append(head)
    for d, name in enumerate(DISTRICTS):
        fields = DISTRICT_FIELDS[d]
        if view.cells[fields[0]] == -2:
            lines.append(f"{name.upper()}: not in play")
            continue
        lines.append(f"{name.upper()}:")
        for f in fields:
            token = view.tokens[f]
            building = view.building_at(f)
            cell = f"  {f:>2} {COLOUR[f]:<6} {FIELD_TYPE[f]:<14}"
            if token:
                cell += f" [{_TOKEN_MARK[TOKENS[token - 1]]}]"
            if building is not None:
                owner, value, built = building
                kind = "built" if built else "BID"
                cell += f" {_who(owner, me)} {value} {kind}"
            lines.append(cell.rstrip())
    if view.bids:
        last = view.bids[-1]
        c = view.cells[last]
        lines.append(f"Current bid: {c & 15} on field {last} by {_who(c >> 4, me)}")
        passed = [p for p in range(n) if view.passed >> p & 1]
        if passed:
            lines.append("Passed: " + ", ".join(_who(q, me) for q in passed))
    for p in range(n):
        got = [view.collected[p * 4 + i] for i in (1, 2, 3)]
        cards = []
        if view.metro_card == p:
            cards.append("metro card")
        if view.archaeology_card == p:
            cards.append("archaeology card")
        lines.append(
            f"{_who(p, me)}: supply {' '.join(map(str, view.supply(p))) or '-'}; "
            f"built {view.built[p]}; tokens chic {got[0]} metro {got[1]} "
            f"arch {got[2]}" + (f"; {', '.join(cards)}" if cards else "")
        )
    if view.area_card is not None:
        own = f"Your area card: {view.area_card}"
        if view.neighbourhood_card is not None:
            own += f"; your neighbourhood card: {view.neighbourhood_card}"
        lines.append(own)
    return "\n".join(lines)
