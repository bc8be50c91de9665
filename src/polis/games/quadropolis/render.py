"""Quadropolis as text: the board, a legend, move lists and narration, for 80-column terminals.

Everything is drawn from a view (no hidden facts). The construction site shows each face-up
tile as its city code plus what it gives (``T2i`` a Tower Block giving 2 inhabitants,
``F3e`` a Factory giving 3 energy, ``H*2`` a Harbor printed with 2 VP, ``!`` the Mayor tile),
``##`` a face-down tile, ``.`` an empty square and ``@`` the Urbanist. Around the site each
spot shows its name in the notation (``L4`` = left end of row 4) while free, the architect
laid there (``3B`` = architect 3 of player B), or ``--`` when the Urbanist blocks it.
Cities are labelled with the notation's rows and columns (``r2c1``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from polis.core.events import Event
from polis.games.quadropolis.city import city_rows
from polis.games.quadropolis.moves import DISCARD, NOTHING, QuadropolisMove
from polis.games.quadropolis.site import SELECT, SPOT_NAMES, site_square_name
from polis.games.quadropolis.tiles import KIND_CODES, KIND_NAMES, TILE_INDEX, TILES
from polis.games.quadropolis.view import EMPTY, FACE_DOWN, QuadropolisView
from polis.games.text import LETTERS, heading, scores_line, seat_names

CELL = 6

LEGEND = (
    "Site: T2i Tower Block giving 2 inhabitants, F3e Factory giving 3 energy,\n"
    "  *2 = 2 VP, ! Mayor tile, ## face-down (not in play), . empty, @ Urbanist.\n"
    "Spots: L4 = left end of row 4 (free), 3B = architect 3 of B, -- blocked.\n"
    "City: T3 Tower Block of 3 floors, U*1 Public Service with 1 VP, p Playground."
)


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
    t = view.site[q]
    if t >= 0:
        return tile_label(t)
    mark = "@" if q == view.urbanist else ""
    return mark + ("##" if t == FACE_DOWN else "" if mark else ".")


def _spot(view: QuadropolisView, s: int) -> str:
    v = view.spots[s]
    if v:
        return f"{v % 8}{LETTERS[v // 8]}"
    return "--" if view.blocked(s) else SPOT_NAMES[s]


def site_lines(view: QuadropolisView) -> list[str]:
    """The construction site with its 20 spots, 7 lines of 40 columns."""
    pad = " " * 4
    top = pad + "".join(_spot(view, 10 + c).center(CELL) for c in range(5))
    lines = [top]
    for r in range(5):
        cells = "".join(_site_cell(view, r * 5 + c).center(CELL) for c in range(5))
        lines.append(f"{_spot(view, r):>3} {cells} {_spot(view, 5 + r)}")
    lines.append(pad + "".join(_spot(view, 15 + c).center(CELL) for c in range(5)))
    return lines


def city_lines(view: QuadropolisView, player: int, name: str) -> list[str]:
    """One city with the notation's row and column labels, and what the player holds."""
    rows = [row.split() for row in city_rows(view.mode, view.city(player))]
    cols = len(rows[0])
    head = f"{LETTERS[player]} {name}"[:22]
    status = f"{view.inhabitants[player]}i {view.energy[player]}e"
    if view.mayor == player:
        status += " Mayor"
    if view.used and not view.finished:
        status += " arch " + ("".join(str(k) for k in view.architects(player)) or "-")
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


def board(view: QuadropolisView, names: Sequence[str] | None = None, width: int = 80) -> str:
    """The whole table: a heading, the site and every city, packed into ``width`` columns."""
    who = seat_names(view, names)
    title = f"Quadropolis {view.mode} - round {view.round}/{view.rounds}, turn {view.turn}/4"
    lines = [heading(title, view, who)]
    if view.mode == "expert" and not view.finished:
        lines.append("Pool: " + "  ".join(f"#{k} x{view.pool[k]}" for k in range(1, 6)))
    blocks = [site_lines(view), *(city_lines(view, p, who[p]) for p in range(view.players))]
    lines += _pack(blocks, width)
    if view.result is not None:
        lines.append(scores_line(view.result.scores))
    return "\n".join(lines)


def render_text(view: QuadropolisView) -> str:
    """The position as plain text (80 columns), seats named by letter."""
    return board(view)


# -- the terminal game's helpers --------------------------------------------------------------


def move_words(view: QuadropolisView, move: QuadropolisMove) -> str:
    """What ``move`` does, in words: the tile it takes and where it goes."""
    q = SELECT[move.spot][move.architect]
    t = view.site[q]
    where = f"architect {move.architect} at {SPOT_NAMES[move.spot]} selects {site_square_name(q)}"
    if move.target == NOTHING:
        return f"{where}: nothing to take ({'face-down' if t == FACE_DOWN else 'empty'})"
    tile = f"{kind_name(t)} {tile_label(t)}"
    if move.target == DISCARD:
        return f"{where}: takes the {tile} and discards it"
    return f"{where}: takes the {tile}, builds it on {str(move).split()[1]}"


def moves_text(view: QuadropolisView, legal: Sequence[QuadropolisMove], query: str = "") -> str:
    """The legal moves, compactly: per architect the spots and what each takes; with a query
    like ``3L4`` (or ``3``), the targets of those placements."""
    query = query.strip().upper()
    if query:
        chosen = [m for m in legal if str(m).upper().startswith(query)]
        if not chosen:
            return f"no legal move starts with {query}"
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
    lines.append("Per architect, what each spot 1-5 of each side takes (- nothing, . not free).")
    lines.append("Type 'moves 3L4' for where architect 3 at L4 may build.")
    return "\n".join(lines)


def example(view: QuadropolisView, legal: Sequence[QuadropolisMove]) -> str:
    """A move to show in the prompt: one that builds, if any."""
    building = [m for m in legal if m.target >= 0]
    return str((building or list(legal))[len(building or legal) // 2])


def prompt_help(view: QuadropolisView) -> str:
    """What to type."""
    return "<architect><spot> <square|x|->"


def narrate(event: Event, names: Sequence[str]) -> str | None:
    """One line for a person reading the game; None for events a terminal need not print."""
    p: dict[str, Any] = dict(event.params)
    who = f"{LETTERS[p['player']]} {names[p['player']]}" if "player" in p else ""
    key = event.key
    if key == "architect_placed":
        return None  # the take/build line says it with the architect
    if key == "building_built":
        floors = f" (floor {p['floors']})" if p["floors"] > 1 else ""
        return (
            f"{who} builds {_tile_words(p['tile'])} from {p['square']} on "
            f"{p['city_square']}{floors}"
        )
    if key == "tile_discarded":
        return f"{who} discards {_tile_words(p['tile'])} from {p['square']}"
    if key == "nothing_taken":
        why = "a face-down tile" if p["reason"] == "face_down" else "an empty square"
        return f"{who} takes nothing: {p['square']} holds {why}"
    if key == "mayor_moved":
        return f"{who} takes the Mayor pawn"
    if key == "round_ended":
        return f"--- round {p['round']} ends ---"
    if key == "round_started":
        return f"--- round {p['round']} begins: {LETTERS[p['first_player']]} plays first ---"
    if key == "site_revealed":
        return "A new construction site is laid out."
    if key == "game_ended":
        return "--- the game is over ---"
    return None


def kind_name(index: int) -> str:
    """The rulebook's name of the building a tile makes (Playground, not Park)."""
    return KIND_NAMES[KIND_CODES.index(TILES[index].code)]


def _tile_words(tile_id: str) -> str:
    index = TILE_INDEX[tile_id]
    return f"a {kind_name(index)} ({tile_label(index)})"


__all__ = [
    "EMPTY",
    "LEGEND",
    "board",
    "example",
    "move_words",
    "moves_text",
    "narrate",
    "render_text",
    "tile_label",
]
