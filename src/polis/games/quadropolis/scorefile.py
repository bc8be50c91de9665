"""City files (formats §1.2), the input of ``polis score``: validated, then scored exactly.

A file typed by a person gets every check that can be made on the file itself, each failure
an InputError naming what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from polis.core.errors import InputError
from polis.games.quadropolis.city import MODES, City, parse_city
from polis.games.quadropolis.scoring import score_city


def _count(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InputError(f"{key!r} must be a whole number of at least 0 (got {value!r})")
    return value


def load_city_file(data: Mapping[str, Any]) -> tuple[str, City, int, int]:
    """A formats.md §1.2 city file -> ``(mode, city, inhabitants, energy)``."""
    if not isinstance(data, Mapping):
        raise InputError("a city file is a JSON object (formats §1.2)")
    game = data.get("game", "quadropolis")
    if game != "quadropolis":
        raise InputError(f"not a Quadropolis city file (game = {game!r})")
    mode = data.get("mode")
    if mode not in MODES:
        raise InputError(f"'mode' must be 'classic' or 'expert' (got {mode!r})")
    if "city" not in data:
        raise InputError("a city file needs 'city': the list of rows (formats §1.2)")
    city = parse_city(mode, data["city"])
    return mode, city, _count(data, "inhabitants"), _count(data, "energy")


_OPTION_KEYS = {
    "playground_absorbs_pollution": bool,
    "office_tower_group_cap": int,
    "empty_squares_tie_break": str,
}


def score_file(data: Mapping[str, Any]) -> dict[str, Any]:
    """``polis score`` for a formats.md §1.2 city file: the §1.3 report.

    An optional ``options`` object may name the rule resolutions (A10, A14, A19).
    """
    mode, city, inh, en = load_city_file(data)
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise InputError("'options' must be an object")
    for key, value in options.items():
        kind = _OPTION_KEYS.get(key)
        if kind is None or not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise InputError(f"unknown or malformed option {key!r}")
    tie = options.get("empty_squares_tie_break", "after_removal")
    if tie not in ("after_removal", "before_removal"):
        raise InputError("empty_squares_tie_break is 'after_removal' or 'before_removal'")
    report = score_city(
        mode,
        city,
        inh,
        en,
        playground_absorbs_pollution=options.get("playground_absorbs_pollution", False),
        office_tower_group_cap=options.get("office_tower_group_cap", 5),
        empty_squares_after_removal=tie == "after_removal",
    )
    return report.to_json()


__all__ = ["load_city_file", "score_file"]
