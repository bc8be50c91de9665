"""Test-wide set-up: the toy game (tests/toygame.py) is importable and registered."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from polis.core.registry import register_game  # noqa: E402
from toygame import GAME  # noqa: E402

register_game(GAME)
