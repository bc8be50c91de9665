"""Learn to play Metropolys: the tutorial's chapters, played on the engine from seeded starts.

Read by the server's generic tutorial player (:mod:`polis.server.http.routes.learn`, where the
fields are described). Every ``text``/``refuse``/``title`` is a key of the game's catalogues
(``web/i18n``); ``check`` paths index the learner's view as JSON. The seeded 2-player Family
game (seed 2) leaves North and East out, lets the learner open, deals them the Bridges Area
objective and lays a Trendy neighborhood on 5 and an Archaeological site on 12; the Expert one
(seed 1) deals them the malls (red) Neighborhood objective. tests/server/test_tutorials.py
plays every chapter: each move legal where it is asked for, each check passing after it.
"""

from __future__ import annotations

from typing import Any, Final


def _field(field: int) -> str:
    """The selector of a neighborhood on the board (the page outlines it)."""
    return f'#metro-board .field[data-field="{field}"]'


def _value(value: int) -> str:
    """The selector of a building's button once its neighborhood is chosen."""
    return f'.values button.value[data-value="{value}"]'


TUTORIAL: Final[dict[str, Any]] = {
    "chapters": [
        {
            "id": "family",
            "title": "tutorial.family.title",
            "mode": "family",
            "players": 2,
            "seed": 2,
            "learner": 0,
            "steps": [
                {"text": "tutorial.family.intro", "mark": ["#metro-board"]},
                {
                    "text": "tutorial.family.open",
                    "move": "2@3",
                    "refuse": "tutorial.family.openRule",
                    "check": {"bid.field": 3, "bid.value": 2, "bid.player": 0},
                    "then": ["4@4"],
                    "mark": [_field(3), _value(2)],
                },
                {
                    "text": "tutorial.family.raise",
                    "move": "6@5",
                    "refuse": "tutorial.family.raiseRule",
                    "check": {"bid.field": 5, "bid.value": 6},
                    "then": ["pass"],
                    "mark": [_field(5), _value(6)],
                },
                {
                    "text": "tutorial.family.won",
                    "mark": [_field(5), ".tokens-cell"],
                },
                {
                    "text": "tutorial.family.open2",
                    "move": "1@13",
                    "refuse": "tutorial.family.open2Rule",
                    "check": {"bid.field": 13, "bid.value": 1},
                    "then": ["9@12"],
                    "mark": [_field(13), _value(1)],
                },
                {
                    "text": "tutorial.family.pass",
                    "move": "pass",
                    "refuse": "tutorial.family.passRule",
                    "check": {"built": [1, 1], "archaeology_card": 1, "supplies.0.0": 1},
                    "mark": ["#pass"],
                },
                {
                    "text": "tutorial.family.tokens",
                    "mark": [_field(12), _field(7), _field(8), ".tokens-cell"],
                },
                {"text": "tutorial.family.objectives", "mark": ["#my-cards"]},
                {"text": "tutorial.family.end"},
            ],
        },
        {
            "id": "expert",
            "title": "tutorial.expert.title",
            "mode": "expert",
            "players": 2,
            "seed": 1,
            "learner": 0,
            "steps": [
                {"text": "tutorial.expert.intro", "mark": ["#my-cards"]},
                {
                    "text": "tutorial.expert.open",
                    "move": "12@2",
                    "refuse": "tutorial.expert.openRule",
                    "check": {"bid.field": 2, "bid.value": 12},
                    "mark": [_field(2), _value(12)],
                },
                {"text": "tutorial.expert.end"},
            ],
        },
    ]
}
