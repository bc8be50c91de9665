"""A plain-text picture of a Metropolys position, showing only what the viewer may see."""

from __future__ import annotations

from typing import TYPE_CHECKING

from polis.metropolys.board import COLOUR, DISTRICT_FIELDS, DISTRICTS, FIELD_TYPE

if TYPE_CHECKING:
    from polis.metropolys.state import MetroState

_TOKEN_MARK = {"chic": "chic(+3)", "metro": "metro(+1)", "archaeology": "arch(-1)"}


def _who(player: int, viewer: int | None) -> str:
    return "you" if player == viewer else f"P{player + 1}"


def render_text(state: MetroState, player: int | None = None) -> str:
    """Fields by district (colour, token, building), the current bid, supplies, own cards."""
    lines: list[str] = []
    n = state.num_players
    head = f"Metropolys ({state.mode}, {n} players)"
    if state.is_terminal():
        head += " - game over"
    else:
        head += (
            f" - P{state.current_player() + 1} to move, round opened by P{state.start_player + 1}"
        )
    lines.append(head)
    for d, name in enumerate(DISTRICTS):
        fields = DISTRICT_FIELDS[d]
        if not state.in_play(fields[0]):
            lines.append(f"{name.upper()}: not in play")
            continue
        lines.append(f"{name.upper()}:")
        for f in fields:
            token = state.token_at(f)
            building = state.building_at(f)
            cell = f"  {f:>2} {COLOUR[f]:<6} {FIELD_TYPE[f]:<14}"
            if token:
                cell += f" [{_TOKEN_MARK[token]}]"
            if building is not None:
                owner, value, built = building
                kind = "built" if built else "BID"
                cell += f" {_who(owner, player)} {value} {kind}"
            lines.append(cell.rstrip())
    bids = state.bids
    if bids:
        f, v, p = bids[-1]
        lines.append(f"Current bid: {v} on field {f} by {_who(p, player)}")
        passed = state.passed
        if passed:
            lines.append("Passed: " + ", ".join(_who(q, player) for q in passed))
    for p in range(n):
        tok = state.collected(p)
        cards = []
        if state.metro_card == p:
            cards.append("metro card")
        if state.archaeology_card == p:
            cards.append("archaeology card")
        lines.append(
            f"{_who(p, player)}: supply {' '.join(map(str, state.supply(p))) or '-'}; "
            f"built {state.built_count(p)}; tokens chic {tok['chic']} metro {tok['metro']} "
            f"arch {tok['archaeology']}" + (f"; {', '.join(cards)}" if cards else "")
        )
    if player is not None:
        setup = state.setup_data
        own = f"Your area card: {setup.area_cards[player]}"
        if setup.neighbourhood_cards is not None:
            own += f"; your neighbourhood card: {setup.neighbourhood_cards[player]}"
        lines.append(own)
    return "\n".join(lines)
