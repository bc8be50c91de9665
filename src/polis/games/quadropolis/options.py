"""The rules options of Quadropolis: named resolutions of what the rulebook leaves open
(spec A5, A10, A14, A19), written into every record."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from polis.core.errors import InputError
from polis.games.quadropolis.view_json import QuadropolisOptionsJSON


@dataclass(frozen=True, slots=True)
class Options:
    """Named resolutions of uncertain rules (spec A5, A10, A14, A19)."""

    face_down_tiles: str = "empty"  # A5: "empty" | "unselectable"
    playground_absorbs_pollution: bool = False  # A10
    office_tower_group_cap: int = 5  # A14
    empty_squares_tie_break: str = "after_removal"  # A19: "after_removal" | "before_removal"

    def to_json(self) -> QuadropolisOptionsJSON:
        return {
            "face_down_tiles": self.face_down_tiles,
            "playground_absorbs_pollution": self.playground_absorbs_pollution,
            "office_tower_group_cap": self.office_tower_group_cap,
            "empty_squares_tie_break": self.empty_squares_tie_break,
        }

    @property
    def scoring(self) -> tuple[bool, int, bool]:
        """The options the scorer takes (A10, A14, A19 as "after removal?")."""
        return (
            self.playground_absorbs_pollution,
            self.office_tower_group_cap,
            self.empty_squares_tie_break == "after_removal",
        )


DEFAULT_OPTIONS: Final = Options()

_CHOICES = {
    "face_down_tiles": ("empty", "unselectable"),
    "empty_squares_tie_break": ("after_removal", "before_removal"),
}


def parse_options(options: Mapping[str, Any] | None) -> Options:
    """Validate a record's ``options`` (unknown names or values raise InputError)."""
    if options is None:
        return DEFAULT_OPTIONS
    if not isinstance(options, Mapping):
        raise InputError("options must be an object of option names and values")
    known = DEFAULT_OPTIONS.to_json()
    for name, value in options.items():
        if name not in known:
            raise InputError(f"unknown Quadropolis option {name!r} (known: {', '.join(known)})")
        if name in _CHOICES:
            if value not in _CHOICES[name]:
                raise InputError(
                    f"option {name} must be one of {', '.join(_CHOICES[name])}, not {value!r}"
                )
        elif name == "playground_absorbs_pollution":
            if not isinstance(value, bool):
                raise InputError(f"option {name} must be true or false, not {value!r}")
        elif not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 5:
            raise InputError(f"option {name} must be a whole number from 1 to 5, not {value!r}")
    merged = {**known, **options}
    return Options(**merged)


__all__ = ["DEFAULT_OPTIONS", "Options", "parse_options"]
