"""Test-wide set-up: the toy game (tests/toygame.py) is importable and registered, and the
bots' searches stay on the Python engines (POLIS_COMPILED=off) unless a test turns the
compiled ones on: with ``auto`` a search would switch engines (and so its seeded choices) in
the middle of a run, once a compile started aside reaches numba's cache."""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from polis.core.registry import register_game  # noqa: E402
from toygame import GAME  # noqa: E402

register_game(GAME)
os.environ.setdefault("POLIS_COMPILED", "off")
