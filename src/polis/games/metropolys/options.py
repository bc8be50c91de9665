"""The rules options of Metropolys: named resolutions of what the rulebook leaves open
(spec §13: R10 lake groups, R17 field 51), written into records with their values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from polis.core.errors import InputError
from polis.games.metropolys.view_json import MetropolysOptionsJSON


@dataclass(frozen=True, slots=True)
class Options:
    """Named resolutions of uncertain rules (spec §13), written into records with values."""

    #: R10: ``one_per_lake`` (default) or ``per_three`` (floor(n/3) groups per lake).
    lake_groups: str = "one_per_lake"
    #: R17: whether field 51 counts as outskirts (default true).
    field_51_outskirts: bool = True

    def to_json(self) -> MetropolysOptionsJSON:
        return {"lake_groups": self.lake_groups, "field_51_outskirts": self.field_51_outskirts}


DEFAULT_OPTIONS: Final = Options()
LAKE_GROUPS: Final = ("one_per_lake", "per_three")


def parse_options(data: Mapping[str, Any] | None) -> Options:
    """Options from a record or request; unknown names or values raise InputError."""
    if data is None:
        return DEFAULT_OPTIONS
    if not isinstance(data, Mapping):
        raise InputError("options must be an object of option name -> value")
    lake_groups = DEFAULT_OPTIONS.lake_groups
    field_51 = DEFAULT_OPTIONS.field_51_outskirts
    for key, value in data.items():
        if key == "lake_groups":
            if value not in LAKE_GROUPS:
                raise InputError(
                    f"option lake_groups must be one of {', '.join(LAKE_GROUPS)}, not {value!r}"
                )
            lake_groups = value
        elif key == "field_51_outskirts":
            if not isinstance(value, bool):
                raise InputError(f"option field_51_outskirts must be true or false, not {value!r}")
            field_51 = value
        else:
            raise InputError(
                f"unknown Metropolys option {key!r} (known: lake_groups, field_51_outskirts)"
            )
    options = Options(lake_groups, field_51)
    return DEFAULT_OPTIONS if options == DEFAULT_OPTIONS else options


__all__ = ["DEFAULT_OPTIONS", "LAKE_GROUPS", "Options", "parse_options"]
