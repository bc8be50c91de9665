"""A compact plain-text picture of a Quadropolis position, drawn from a view (no hidden facts).

Site cells: face-up tiles as their city code plus what they give (``T+2i``, ``F+3e``,
``H*2``; ``!`` marks the Mayor tile), ``##`` a face-down tile, ``.`` an empty square; the
Urbanist's square is bracketed. Architects stand around the grid as ``<number><player
letter>`` (``3B`` = architect 3 placed by player B).
"""

from __future__ import annotations

from typing import Any

from polis.games.quadropolis.view import QuadropolisView

LETTERS = "ABCD"
W = 6


def _cell(square: dict[str, Any]) -> str:
    if square["state"] == "empty":
        return "."
    if square["state"] == "face-down":
        return "##"
    tile = square["tile"]
    text = str(tile["code"])
    if tile["vp"]:
        text += f"*{tile['vp']}"
    gives = tile["gives"]
    if gives["inhabitants"]:
        text += f"+{gives['inhabitants']}i"
    if gives["energy"]:
        text += f"+{gives['energy']}e"
    if tile["mayor"]:
        text += "!"
    return text


def _arch(spot: dict[str, Any]) -> str:
    if spot["architect"] is None:
        return "x" if spot["blocked"] else "-"
    return f"{spot['architect']}{LETTERS[spot['player']]}"


def render_text(seen: QuadropolisView) -> str:
    """Site with architects and Urbanist, then every city with its resources."""
    view = seen.to_json()
    n = view["players"]
    lines = [
        f"Quadropolis {view['mode']} - round {view['round']}/{view['rounds']}, "
        f"turn {view['turn']}/4"
        + (" - game over" if view["finished"] else f" - to move: {LETTERS[view['current_player']]}")
        + f" - first player {LETTERS[view['first_player']]}, Mayor {LETTERS[view['mayor']]}"
    ]
    spots = {s["spot"]: _arch(s) for s in view["spots"]}
    urb = view["urbanist"]
    pad = " " * 4
    lines.append(pad + "".join(spots[f"T{c}"].center(W) for c in range(1, 6)))
    for r in range(1, 6):
        cells = []
        for c in range(1, 6):
            sq = view["site"][(r - 1) * 5 + c - 1]
            text = _cell(sq)
            if sq["square"] == urb:
                text = f"[{text}]"
            cells.append(text.center(W))
        lines.append(f"{spots[f'L{r}']:>3} " + "".join(cells) + f" {spots[f'R{r}']}")
    lines.append(pad + "".join(spots[f"B{c}"].center(W) for c in range(1, 6)))
    if view["pool"] is not None:
        lines.append("pool: " + "  ".join(f"#{k}x{v}" for k, v in view["pool"].items()))
    for p in range(n):
        arch = ""
        if view["architects"] is not None:
            arch = " architects " + ("".join(str(k) for k in view["architects"][p]) or "-")
        marker = ">" if view["current_player"] == p else " "
        lines.append(
            f"{marker}{LETTERS[p]}: {view['inhabitants'][p]} inhabitants, "
            f"{view['energy'][p]} energy{arch}" + (" (Mayor)" if view["mayor"] == p else "")
        )
        width = max(len(code) for row in view["cities"][p]["rows"] for code in row.split())
        for row in view["cities"][p]["rows"]:
            lines.append("    " + " ".join(code.ljust(width) for code in row.split()))
    if view["finished"] and "result" in view:
        scores = view["result"]["scores"]
        lines.append("scores: " + ", ".join(f"{LETTERS[p]} {s}" for p, s in enumerate(scores)))
    return "\n".join(lines)
