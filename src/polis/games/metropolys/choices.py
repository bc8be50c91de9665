"""The legal moves as the web client's choices: a field, then a value; or pass.

Built from the legal moves only, so the client offers exactly the legal fields and values
and never works out a rule or writes notation: every leaf carries the move to send back.
"""

from __future__ import annotations

from collections.abc import Sequence

from polis.games.metropolys.moves import PASS, MetropolysMove
from polis.games.metropolys.view import MetropolysView
from polis.games.metropolys.view_json import ChoiceValueJSON, MetropolysChoicesJSON


def legal_choices(view: MetropolysView, legal: Sequence[MetropolysMove]) -> MetropolysChoicesJSON:
    """``{"fields": [{"field", "values": [{"value", "move"}]}], "pass": "pass" or null}``;
    fields ascending, values ascending."""
    fields: dict[int, list[ChoiceValueJSON]] = {}
    for move in legal:
        if move is not PASS:
            fields.setdefault(move.field, []).append({"value": move.value, "move": move.text})
    return {
        "fields": [
            {"field": f, "values": sorted(values, key=lambda v: v["value"])}
            for f, values in sorted(fields.items())
        ],
        "pass": PASS.text if PASS in legal else None,
    }
