"""Metropolys as text: the board, a legend, move lists and narration, for 80-column terminals.

Drawn from a view (no hidden facts). Each field is one cell: its number, a ``+`` when it
counts for the viewer's own secret card, the token still lying there (``*`` trendy
neighbourhood +3, ``m`` subway +1, ``x`` archaeological site -1) and the building on it:
``B7`` = B built a 7, ``b7`` = B bids 7 in this call. The tokens and cards are named with the
catalogue's words for them (``token.*``, ``metroCard``), the ones the narration and the
scoring pad use. :func:`legend` explains every sign (a test draws boards and looks for each
sign in it).

Every word comes from the game's catalogue (``web/i18n/<lang>.json``, the browser's too), in
ICU MessageFormat: :func:`messages` turns an event into the same keys and arguments as the
web client's ``describe``, so the terminal and the browser word every event alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from polis.core.events import Event
from polis.core.wording import DEFAULT, Words
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
from polis.games.text import (
    LETTERS,
    game_words,
    heading,
    legend_lines,
    narration,
    scores_line,
    seat_label,
    seat_names,
    wrap,
)

#: The sign of each token on the board (``x``, not ``a``: ``a7`` is a bid of seat A).
TOKEN_MARK = {"chic": "*", "metro": "m", "archaeology": "x"}
#: The catalogue's name of each card that changes hands.
CARD_NAMES = {"metro": "metroCard", "archaeology": "archaeologyCard"}
#: Columns for a district's name left of its fields (``STADTMITTE``, ``POŁUDNIE``).
LABEL = 11
#: Columns of a field, a space after it included.
CELL = 9
#: Columns for a seat's letter and name left of its supply (``B (bot easy)``).
SEAT = 14
#: Events the terminal does not print.
QUIET: frozenset[str] = frozenset()


def wording(lang: str = DEFAULT) -> Words:
    """The translator of Metropolys in ``lang``."""
    return game_words(__package__ or "polis.games.metropolys", lang)


def legend(lang: str = DEFAULT) -> str:
    """What every sign of the terminal's board means, in 80 columns: each line a heading and
    ``sign = meaning`` entries, the tokens named as the narration names them."""
    say = wording(lang)
    tokens = {token: say(f"token.{token}") for token in TOKEN_MARK}
    lines = [
        say("term.legend.fields", tokens),
        say("term.legend.buildings", bids=say("term.bids", chain="A 3@12 -> B 5@13")),
        say("term.legend.supply", built=say("term.built")),
        say("term.legend.seats"),
    ]
    return "\n".join(legend_lines("\n".join(lines)))


def cards_text(area: str, colour: str | None, say: Words) -> str:
    """A player's secret objectives in words (as the web client's ``cardsText``)."""
    parts = [f"{say('cat.area')}: {say(f'area.{area}')}"]
    if colour:
        parts.append(say("neighbourhood", colour=say(f"colour.{colour}")))
    return ", ".join(parts)


def _counts_for_me(view: MetropolysView, field: int) -> bool:
    """Does ``field`` count for the viewer's own area or neighbourhood card?"""
    card = view.area_card
    if (card == "bridges" and ON_BRIDGE[field]) or (card == "statues" and ON_STATUE[field]):
        return True
    if (card == "lakes" and ON_LAKE[field]) or (card == "outskirts" and field in OUTSKIRTS):
        return True
    return view.neighbourhood_card is not None and COLOUR[field] == view.neighbourhood_card


def field_cell(view: MetropolysView, field: int) -> str:
    """One field in at most 8 characters: ``12+* b13`` (its number, ``+`` when it counts
    for the viewer's objectives, the token lying there, the building apart)."""
    text = f"{field:>2}" + ("+" if _counts_for_me(view, field) else " ")
    token = view.tokens[field]
    text += TOKEN_MARK[TOKENS[token - 1]] if token else " "
    building = view.building_at(field)
    if building is not None:
        owner, value, built = building
        letter = LETTERS[owner] if built else LETTERS[owner].lower()
        text += f" {letter}{value}"
    return text


def board(
    view: MetropolysView,
    names: Sequence[str] | None = None,
    width: int = 80,
    lang: str = DEFAULT,
) -> str:
    """Districts with their fields, the bids of this round, every player's supply."""
    say = wording(lang)
    who = seat_names(view, names, say)
    title = say("term.title", mode=say(f"mode.{view.mode}"), players=view.players)
    lines = [heading(title, view, who, say)]
    per_line = (width - LABEL) // CELL
    for d, name in enumerate(DISTRICTS):
        fields = DISTRICT_FIELDS[d]
        district = say(f"district.{name}").upper()[: LABEL - 1]
        if view.cells[fields[0]] == -2:
            lines.append(f"{district:<{LABEL}}{say('unused')}")
            continue
        for i in range(0, len(fields), per_line):
            label = district if i == 0 else ""
            cells = "".join(field_cell(view, f).ljust(CELL) for f in fields[i : i + per_line])
            lines.append(f"{label:<{LABEL}}{cells}".rstrip())
    if view.bids:
        chain = " -> ".join(
            say("term.bid", seat=LETTERS[view.cells[f] >> 4], value=view.cells[f] & 15, field=f)
            for f in view.bids
        )
        lines.append(say("term.bids", chain=chain))
        passed = [LETTERS[p] for p in range(view.players) if view.passed >> p & 1]
        if passed:
            lines.append(say("term.passed", seats=" ".join(passed)))
    built = say("term.built")
    for p in range(view.players):
        got = view.collected[p * 4 : p * 4 + 4]
        supply = " ".join(map(str, view.supply(p))) or "-"
        marks = " ".join(f"{TOKEN_MARK[t]}{got[i]}" for i, t in enumerate(TOKENS, start=1))
        label = seat_label(p, who[p])[:SEAT]
        lines.append(f"{label:<{SEAT}} {supply:<29} {built} {view.built[p]:>2} {marks}")
    held = (
        (CARD_NAMES["metro"], view.metro_card),
        (CARD_NAMES["archaeology"], view.archaeology_card),
    )
    cards = [f"{say(card)}: {seat_label(h, who[h])}" for card, h in held if h >= 0]
    if cards:
        lines.append("; ".join(cards))
    if view.area_card is not None:
        own = cards_text(view.area_card, view.neighbourhood_card, say)
        lines.append(f"{say('yourCards')} {own}")
    if view.result is not None:
        lines.append(scores_line(view.result.scores, say))
    return "\n".join(lines)


def render_text(view: MetropolysView) -> str:
    """The position as plain text (80 columns), seats named by letter."""
    return board(view)


# -- the terminal game's helpers --------------------------------------------------------------


def moves_text(
    view: MetropolysView,
    legal: Sequence[MetropolysMove],
    query: str = "",
    lang: str = DEFAULT,
) -> str:
    """The legal moves compactly: each field with the values that may go there (a query
    like ``12`` shows one field and its neighbours)."""
    say = wording(lang)
    fields: dict[int, list[int]] = {}
    for m in legal:
        if m is not PASS:
            fields.setdefault(m.field, []).append(m.value)
    query = query.strip()
    if query.isdigit():
        f = int(query)
        near = " ".join(str(g) for g in ADJACENT[f])
        values = " ".join(map(str, fields.get(f, []))) or say("term.moves.none")
        colour = say(f"colour.{COLOUR[f]}")
        return say("term.moves.field", n=f, colour=colour, values=values, near=near)
    if not fields:
        return say("term.moves.only_pass")
    rows = {tuple(v) for v in fields.values()}
    lines = []
    if len(rows) == 1:
        (same,) = rows
        lines.append(say("term.moves.any", values=" ".join(map(str, same))))
        lines.append(" ".join(map(str, sorted(fields))))
    else:
        lines += [f"{f}: {' '.join(map(str, v))}" for f, v in sorted(fields.items())]
    if PASS in legal:
        lines.append(say("term.moves.or_pass"))
    return "\n".join(wrap(" | ".join(lines) if len(lines) > 8 else "\n".join(lines), 80))


def example(view: MetropolysView, legal: Sequence[MetropolysMove]) -> str:
    """A move to show in the prompt: a bid from the middle of the list, else pass."""
    bids = [m for m in legal if m is not PASS]
    return str(bids[len(bids) // 2]) if bids else "pass"


def prompt_help(view: MetropolysView, lang: str = DEFAULT) -> str:
    """What to type, and where a raise may go."""
    say = wording(lang)
    if view.bids:
        last = view.bids[-1]
        return say("term.prompt.raise", value=view.cells[last] & 15, field=last)
    return say("term.prompt.open")


Message = tuple[str, dict[str, Any]]


def messages(event: Event, names: Sequence[str], say: Words) -> list[Message]:
    """The catalogue keys and arguments that tell ``event``, seats named ``names``: what the
    web client's ``describe`` formats too (nested words already in ``say``'s language)."""
    p: dict[str, Any] = dict(event.params)

    def who(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    name = who(p.get("player"))
    key = event.key
    if key == "game_started":
        mode = say(f"mode.{p['mode']}")
        first = who(p["first_player"])
        return [("event.game_started", {"mode": mode, "players": p["players"], "name": first})]
    if key == "cards_dealt":
        cards = cards_text(p["area_card"], p.get("neighbourhood_card"), say)
        return [("event.cards_dealt", {"name": name, "cards": cards})]
    if key == "bid_raised":
        raised = {"name": name, "value": p["value"], "field": p["field"]}
        raised |= {"over": p["over_value"], "overField": p["over_field"]}
        return [("event.bid_raised", raised)]
    if key == "bid_won":
        reason = say(f"reason.{p['reason']}")
        won = {"name": name, "value": p["value"], "field": p["field"], "reason": reason}
        out: list[Message] = [("event.bid_won", won)]
        back = list(dict.fromkeys(who(r["player"]) for r in p["returned"]))
        if back:
            count = {"count": len(back), "bids": len(p["returned"])}
            out.append(("returned", {"names": say.names(back), **count}))
        return out
    if key == "token_collected":
        return [("event.token_collected", {"name": name, "token": say(f"token.{p['token']}")})]
    if key == "card_changed_hands":
        card = say(CARD_NAMES.get(p["card"], p["card"]))
        giver = p.get("from")
        which = "event.card_changed_hands" if giver is None else "event.card_taken_from"
        given = "" if giver is None else who(giver)
        return [(which, {"name": name, "card": card, "from": given})]
    if key == "game_ended":
        best = p["ranking"][0]
        which = "event.game_ended_tie" if len(best) > 1 else "event.game_ended"
        winners = say.names([who(q) for q in best])
        out = [(which, {"names": winners, "score": p["scores"][best[0]]})]
        shown = [
            f"{who(c['player'])}: {cards_text(c['area_card'], c.get('neighbourhood_card'), say)}"
            for c in p.get("cards") or []
        ]
        if shown:
            out.append(("cardsRevealed", {"cards": "; ".join(shown)}))
        return out
    # round_started, player_passed, bid_placed, round_ended
    return [(f"event.{key}", {**p, "name": name})]


def narrate(event: Event, names: Sequence[str], lang: str = DEFAULT) -> str | None:
    """One line for a person reading the game, seats lettered; None for events a terminal
    need not print."""
    return narration(event, names, wording(lang), messages, QUIET)


__all__ = [
    "board",
    "cards_text",
    "example",
    "legend",
    "messages",
    "moves_text",
    "narrate",
    "render_text",
    "wording",
]
