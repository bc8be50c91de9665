"""Quadropolis as text: the board, a legend, move lists and narration, for 80-column terminals.

Everything is drawn from a view (no hidden facts). The construction site shows each face-up
tile as its city code plus what it gives (``T2i`` a Tower Block giving 2 inhabitants,
``F3e`` a Factory giving 3 energy, ``H*2`` a Harbor printed with 2 VP, ``!`` the Mayor tile),
``##`` a face-down tile, ``.`` an empty square, and ``@`` in the column before a square's
sign the Urbanist. Around the site each spot shows its name in the notation (``L4`` = left
end of line 4) while free, the architect laid there (``3B`` = architect 3 of player B), or
``--`` when the Urbanist blocks it. Cities are labelled with the notation's rows and
columns (``r2c1``). :func:`legend` explains every sign (a test draws boards and looks for
each sign in it).

Every word comes from the game's catalogue (``web/i18n/<lang>.json``, the browser's too), in
ICU MessageFormat: :func:`messages` turns an event into the same keys and arguments as the
web client's ``describe``, so the terminal and the browser word every event alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from polis.core.events import Event
from polis.core.wording import DEFAULT, Words
from polis.games.quadropolis.city import city_rows
from polis.games.quadropolis.moves import QuadropolisMove
from polis.games.quadropolis.site import SPOT_NAMES
from polis.games.quadropolis.tiles import TILES, TYPE_CODE
from polis.games.quadropolis.view import EMPTY, FACE_DOWN, QuadropolisView
from polis.games.text import (
    LETTERS,
    game_words,
    heading,
    legend_lines,
    narration,
    scores_line,
    seat_label,
    seat_names,
)

CELL = 6
#: Events the terminal does not print (the board shows the Urbanist where it stands).
QUIET = frozenset({"urbanist_moved"})


def wording(lang: str = DEFAULT) -> Words:
    """The translator of Quadropolis in ``lang``."""
    return game_words(__package__ or "polis.games.quadropolis", lang)


def legend(lang: str = DEFAULT) -> str:
    """What every sign of the terminal's board means, in 80 columns: each line a heading and
    ``sign = meaning`` entries (the buildings named as the narration and the scoring pad
    name them)."""
    say = wording(lang)
    codes = [(code, f"type.{kind}") for kind, code in TYPE_CODE.items()]
    codes.insert(codes.index(("P", "type.park")) + 1, ("p", "type.playground"))
    buildings = "; ".join(f"{code} = {say(key)}" for code, key in codes)
    lines = [
        say("term.legend.buildings", buildings=buildings),
        say("term.legend.site"),
        say("term.legend.spots"),
        say(
            "term.legend.city",
            mayor=say("term.mayor"),
            arch=say("term.arch", left="134"),
            none=say("term.arch", left="-"),
        ),
        say("term.legend.pool", pool=say("term.pool", pool="#1 x3")),
        say("term.legend.seats"),
    ]
    return "\n".join(legend_lines("\n".join(lines)))


def tile_label(index: int) -> str:
    """A face-up tile in at most 5 characters: code, printed VP, what it gives, Mayor mark."""
    t = TILES[index]
    text = t.code
    if t.vp:
        text += f"*{t.vp}"
    if t.inhabitants:
        text += f"{t.inhabitants}i"
    if t.energy:
        text += f"{t.energy}e"
    return text + ("!" if t.mayor else "")


def _site_cell(view: QuadropolisView, q: int) -> str:
    """A site square in :data:`CELL` columns: a column for the Urbanist's ``@``, then what
    lies there from the same column in every row (``@##`` shifts nothing)."""
    t = view.site[q]
    mark = "@" if q == view.urbanist else " "
    label = tile_label(t) if t >= 0 else "##" if t == FACE_DOWN else "" if mark == "@" else "."
    return f"{mark}{label:<{CELL - 1}}"


def _spot(view: QuadropolisView, s: int) -> str:
    v = view.spots[s]
    if v:
        return f"{v % 8}{LETTERS[v // 8]}"
    return "--" if view.blocked(s) else SPOT_NAMES[s]


def site_lines(view: QuadropolisView) -> list[str]:
    """The construction site with its 20 spots, 7 lines of 39 columns; the spots above and
    below stand over the column of the signs."""
    pad = " " * 4
    top = pad + "".join(f" {_spot(view, 10 + c):<{CELL - 1}}" for c in range(5))
    lines = [top.rstrip()]
    for r in range(5):
        cells = "".join(_site_cell(view, r * 5 + c) for c in range(5))
        lines.append(f"{_spot(view, r):>3} {cells}  {_spot(view, 5 + r)}")
    bottom = pad + "".join(f" {_spot(view, 15 + c):<{CELL - 1}}" for c in range(5))
    lines.append(bottom.rstrip())
    return lines


def city_lines(
    view: QuadropolisView, player: int, name: str, say: Words | None = None
) -> list[str]:
    """One city with the notation's row and column labels, and what the player holds."""
    say = say or wording()
    rows = [row.split() for row in city_rows(view.mode, view.city(player))]
    cols = len(rows[0])
    head = seat_label(player, name)[:22]
    status = f"{view.inhabitants[player]}i {view.energy[player]}e"
    if view.mayor == player:
        status += " " + say("term.mayor")
    if view.used and not view.finished:
        left = "".join(str(k) for k in view.architects(player)) or "-"
        status += " " + say("term.arch", left=left)
    lines = [head, "  " + status, "   " + "".join(f"c{c + 1}".ljust(4) for c in range(cols))]
    for r, row in enumerate(rows):
        lines.append(f"r{r + 1} " + "".join(code.ljust(4) for code in row))
    return lines


def _pack(blocks: Sequence[list[str]], width: int) -> list[str]:
    """Blocks of lines side by side, as many as fit in ``width`` columns per band."""
    out: list[str] = []
    band: list[list[str]] = []
    used = 0
    for block in blocks:
        w = max(len(line) for line in block) + 2
        if band and used + w > width:
            out += _join(band)
            band, used = [], 0
        band.append(block)
        used += w
    if band:
        out += _join(band)
    return out


def _join(band: list[list[str]]) -> list[str]:
    widths = [max(len(line) for line in block) + 2 for block in band]
    height = max(len(block) for block in band)
    return [
        "".join(
            (block[i] if i < len(block) else "").ljust(w)
            for block, w in zip(band, widths, strict=True)
        ).rstrip()
        for i in range(height)
    ]


def board(
    view: QuadropolisView,
    names: Sequence[str] | None = None,
    width: int = 80,
    lang: str = DEFAULT,
) -> str:
    """The whole table: a heading, the site and every city, packed into ``width`` columns."""
    say = wording(lang)
    who = seat_names(view, names, say)
    mode = say(f"mode.{view.mode}")
    title = say("term.title", mode=mode, round=view.round, rounds=view.rounds, turn=view.turn)
    lines = [heading(title, view, who, say)]
    if view.mode == "expert" and not view.finished:
        pool = "  ".join(f"#{k} x{view.pool[k]}" for k in range(1, 6))
        lines.append(say("term.pool", pool=pool))
    cities = (city_lines(view, p, who[p], say) for p in range(view.players))
    lines += _pack([site_lines(view), *cities], width)
    if view.result is not None:
        lines.append(scores_line(view.result.scores, say))
    return "\n".join(lines)


def render_text(view: QuadropolisView) -> str:
    """The position as plain text (80 columns), seats named by letter."""
    return board(view)


# -- the terminal game's helpers --------------------------------------------------------------


def moves_text(
    view: QuadropolisView,
    legal: Sequence[QuadropolisMove],
    query: str = "",
    lang: str = DEFAULT,
) -> str:
    """The legal moves, compactly: per architect the spots and what each takes; with a query
    like ``3L4`` (or ``3``), the targets of those placements."""
    say = wording(lang)
    query = query.strip().upper()
    if query:
        chosen = [m for m in legal if str(m).upper().startswith(query)]
        if not chosen:
            return say("term.moves.none", query=query)
        groups: dict[str, list[str]] = {}
        for m in chosen:
            head, tail = str(m).split()
            groups.setdefault(head, []).append(tail)
        return "\n".join(f"{head}: {' '.join(tails)}" for head, tails in groups.items())
    by_architect: dict[int, dict[int, str]] = {}
    for m in legal:
        t = view.offer(m.architect, m.spot)
        by_architect.setdefault(m.architect, {})[m.spot] = tile_label(t) if t >= 0 else "-"
    lines = []
    for k, spots in sorted(by_architect.items()):
        sides = []
        for side in range(4):
            cells = "".join(spots.get(side * 5 + i, ".").ljust(6) for i in range(5))
            sides.append(f"{'LRTB'[side]} {cells}")
        lines.append(f"{k}  {sides[0]} {sides[1]}".rstrip())
        lines.append(f"   {sides[2]} {sides[3]}".rstrip())
    lines.append(say("term.moves.key"))
    lines.append(say("term.moves.more"))
    return "\n".join(lines)


def example(view: QuadropolisView, legal: Sequence[QuadropolisMove]) -> str:
    """A move to show in the prompt: one that builds, if any."""
    building = [m for m in legal if m.target >= 0]
    return str((building or list(legal))[len(building or legal) // 2])


def prompt_help(view: QuadropolisView, lang: str = DEFAULT) -> str:
    """What to type."""
    return wording(lang)("term.prompt")


Message = tuple[str, dict[str, Any]]


def _type_name(kind: str, code: str | None, say: Words) -> str:
    return say("type.playground" if code == "p" else f"type.{kind}")


def _square_words(name: str, say: Words) -> str:
    found = re.fullmatch(r"r(\d+)c(\d+)", name or "")
    return say("square", row=int(found[1]), col=int(found[2])) if found else name


def _spot_words(name: str, say: Words) -> str:
    if name not in SPOT_NAMES:
        return name
    index = SPOT_NAMES.index(name)
    return say(f"spot.{'LRTB'[index // 5]}", n=index % 5 + 1)


def messages(event: Event, names: Sequence[str], say: Words) -> list[Message]:
    """The catalogue keys and arguments that tell ``event``, seats named ``names``: what the
    web client's ``describe`` formats too (nested words already in ``say``'s language)."""
    p: dict[str, Any] = dict(event.params)

    def who(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    name = who(p.get("player"))
    key = event.key
    tile = _type_name(p["kind"], p.get("code"), say) if p.get("kind") else ""
    if key == "game_started":
        mode = say(f"mode.{p['mode']}")
        first = who(p["first_player"])
        return [("event.game_started", {"mode": mode, "players": p["players"], "name": first})]
    if key == "round_started":
        return [("event.round_started", {"round": p["round"], "name": who(p["first_player"])})]
    if key == "site_revealed":
        shown = sum(1 for tile_id in p["layout"] if tile_id is not None)
        return [("event.site_revealed", {"round": p["round"], "n": shown})]
    if key == "architect_placed":
        where = _spot_words(p["spot"], say)
        return [("event.architect_placed", {"name": name, "k": p["architect"], "where": where})]
    if key == "urbanist_moved":
        return [("event.urbanist_moved", {"square": _square_words(p["square"], say)})]
    if key == "nothing_taken":
        return [("event.nothing_taken", {"name": name, "reason": say(f"reason.{p['reason']}")})]
    if key == "building_built":
        square = _square_words(p["city_square"], say)
        built = {"name": name, "tile": tile, "square": square, "floors": p["floors"]}
        return [("event.building_built", built)]
    if key == "tile_discarded":
        return [("event.tile_discarded", {"name": name, "tile": tile})]
    if key == "mayor_moved":
        return [("event.mayor_moved", {"name": name})]
    if key == "game_ended":
        best = p["ranking"][0]
        which = "event.game_ended_tie" if len(best) > 1 else "event.game_ended"
        winners = say.names([who(q) for q in best])
        return [(which, {"names": winners, "score": p["scores"][best[0]]})]
    return [(f"event.{key}", {**p, "name": name})]  # round_ended


def narrate(event: Event, names: Sequence[str], lang: str = DEFAULT) -> str | None:
    """One line for a person reading the game, seats lettered; None for events a terminal
    need not print."""
    return narration(event, names, wording(lang), messages, QUIET)


__all__ = [
    "EMPTY",
    "board",
    "example",
    "legend",
    "messages",
    "moves_text",
    "narrate",
    "render_text",
    "tile_label",
    "wording",
]
