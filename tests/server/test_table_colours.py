"""The players' colours stay apart for colour-blind players: each game's palette, seen
through the three dichromacies (Machado, Oliveira & Fuhrmann 2009, full severity), keeps every
pair of seats at least a clear colour difference apart (CIE76 ΔE); each seat also has a
shape of its own, so colour is never the only sign."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from polis.core.registry import games
from polis.server.http.webfiles import game_client

from .test_game_clients import STATIC

#: Linear-RGB simulation matrices, severity 1.0.
DICHROMACIES = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
#: Two colours this far apart (ΔE) are told apart at a glance.
LEAST = 15.0


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def seen_as(colour: str, matrix: tuple[tuple[float, ...], ...]) -> tuple[float, float, float]:
    """``colour`` (#rrggbb) as a dichromat sees it, in CIE Lab."""
    rgb = [_linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5)]
    out = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix]
    return _lab((out[0], out[1], out[2]))


def closest_pair(palette: list[str]) -> dict[str, float]:
    """Per dichromacy, the smallest difference between two of the palette's colours."""
    return {
        name: min(
            math.dist(seen_as(a, m), seen_as(b, m)) for a, b in itertools.combinations(palette, 2)
        )
        for name, m in DICHROMACIES.items()
    }


def palette(name: str) -> list[str]:
    client = game_client(games()[name])
    assert client is not None
    source = client.read("client.js")
    match = re.search(r"PLAYER_COLOURS\s*=\s*\[([^\]]*)\]", source)
    assert match, name
    return re.findall(r'"(#[0-9A-Fa-f]{6})"', match.group(1))


@pytest.mark.parametrize("name", ["quadropolis", "metropolys"])
def test_every_game_palette_is_told_apart_with_any_colour_vision(name: str) -> None:
    colours = palette(name)
    assert len(colours) >= games()[name].max_players
    worst = closest_pair(colours)
    assert min(worst.values()) >= LEAST, worst


def test_the_check_rejects_a_red_green_palette() -> None:
    """The palette the web app had before: red and green merge for deuteranopes."""
    worst = closest_pair(["#2f6fd6", "#d23c3c", "#2e9d4a", "#e0a21b"])
    assert worst["deuteranopia"] < LEAST


def test_every_seat_has_a_shape_of_its_own() -> None:
    source = (STATIC / "js" / "players.js").read_text("utf-8")
    shapes = re.findall(r'"(\w+)"', re.search(r"SHAPES = \[([^\]]*)\]", source).group(1))  # type: ignore[union-attr]
    assert len(set(shapes)) == len(shapes) >= max(g.max_players for g in games().values())
    css = (STATIC / "style.css").read_text("utf-8")
    for i in range(1, len(shapes)):  # shape 0 is the circle; every other one is drawn apart
        assert f".dot.shape-{i}" in css
