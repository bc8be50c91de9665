"""The scoring pad: a score report (or a game's result) as the printed pad's table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

#: Row labels of the pads, in the order of the printed scoring pads.
QUADROPOLIS_ROWS = {
    "tower_blocks": "Tower Blocks",
    "shops": "Shops",
    "public_services": "Public Services",
    "parks": "Parks",
    "factories": "Factories",
    "harbors": "Harbors",
    "office_towers": "Office Towers",
    "monuments": "Monuments",
    "inhabitants_penalty": "Unused inhabitants",
    "energy_penalty": "Unused energy",
}
METROPOLYS_ROWS = {
    "chic": "Trendy neighbourhood tokens",
    "metro": "Subway tokens",
    "metro_card": "Subway card",
    "archaeology": "Archaeological site tokens",
    "archaeology_card": "Archaeological site card",
    "area": "Area objective",
    "neighbourhood": "Neighbourhood objective",
    "highest": "Highest buildings",
}


def pad_table(report: Mapping[str, Any], names: Sequence[str] | None = None) -> Table:
    """A Rich table for a city report, a Metropolys report or a game result."""
    if "categories" in report:  # one Quadropolis city
        columns = [dict(report["categories"], total=report["total"])]
        rows, heads = QUADROPOLIS_ROWS, ["Score"]
    else:
        players = report["players"]
        key = "breakdown" if players and "breakdown" in players[0] else "categories"
        columns = [dict(p[key], total=p["total"]) for p in players]
        rows = METROPOLYS_ROWS if key == "breakdown" else QUADROPOLIS_ROWS
        heads = list(names) if names else [f"Player {i + 1}" for i in range(len(columns))]
    table = Table(title=f"{str(report.get('game', '')).title()} ({report.get('mode', '')})")
    table.add_column("")
    for head in heads:
        table.add_column(head, justify="right")
    for key, label in rows.items():
        table.add_row(label, *(str(col.get(key, 0)) for col in columns))
    table.add_section()
    table.add_row("Total", *(str(col["total"]) for col in columns), style="bold")
    if "ranking" in report:
        places: dict[int, int] = {}
        for group in report["ranking"]:
            places.update((p, len(places) + 1) for p in group)
        table.add_row("Place", *(str(places.get(i, "")) for i in range(len(columns))))
    return table


def print_pad(report: Mapping[str, Any], names: Sequence[str] | None = None) -> None:
    Console().print(pad_table(report, names))
