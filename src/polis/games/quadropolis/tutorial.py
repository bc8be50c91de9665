"""Learn to play Quadropolis: the tutorial's chapters, played on the engine from seeded starts.

Read by the server's generic tutorial player (:mod:`polis.server.http.routes.learn`, where the
fields are described). Every ``text``/``refuse``/``title`` is a key of the game's catalogues
(``web/i18n``); ``check`` paths index the learner's view as JSON (city squares row-major:
r1c1 is 0, r2c3 is 6 in Classic, r2c1 is 5 in Expert). tests/quadropolis/test_tutorial.py
plays every chapter: each move legal where it is asked for, each check passing after it.
"""

from __future__ import annotations

from typing import Any, Final

#: Round 1 of the seeded 2-player Classic game the first chapters play (seed 1), then the
#: moves a greedy bot made for both seats up to the learner's last turn.
_ROUND_1: Final = [
    "1L2 r1c1",
    "2T2 r2c2",
    "3T4 r2c3",
    "4R5 r4c4",
    "2B1 r1c1",
    "3L3 r3c3",
    "4R1 r2c4",
    "1T5 r1c2",
]
_TO_LAST_TURN: Final = [
    *_ROUND_1,
    *("1R1 r1c1", "1R3 r4c1", "4L4 r1c1", "2T5 r2c3", "3T4 r3c4", "4T2 r2c4", "2T3 r2c2"),
    *("3B2 r3c1", "1L4 r2c1", "4R5 r3c4", "3L1 r3c1", "1T2 r2c1", "4L3 r1c4", "2T5 r3c2"),
    *("2R1 r3c2", "3R3 r4c3", "1R4 r3c1", "1R2 r1c4", "2L3 r1c2", "3L5 r1c3", "3B4 r4c3"),
    "2T5 -",
]


def _cell(square: str) -> str:
    """The selector of a square of the learner's city (the page outlines it)."""
    return f'#my-city .cell[data-target="{square}"]'


TUTORIAL: Final[dict[str, Any]] = {
    "chapters": [
        {
            "id": "classic",
            "title": "tutorial.classic.title",
            "mode": "classic",
            "players": 2,
            "seed": 1,
            "learner": 0,
            "steps": [
                {"text": "tutorial.classic.intro", "mark": ["#site"]},
                {
                    "text": "tutorial.classic.architect",
                    "move": "1L2 r1c1",
                    "mark": [_cell("r1c1")],
                    "refuse": "tutorial.classic.architectRule",
                    "check": {"cities.0.squares.0.code": "T", "inhabitants.0": 1},
                    "then": ["2T2 r2c2"],
                },
                {"text": "tutorial.classic.urbanist", "mark": ["#urbanist", "#site .spot.blocked"]},
                {
                    "text": "tutorial.classic.where",
                    "move": "3T4 r2c3",
                    # any empty square of row 3 or column 3 will do
                    "accept": [
                        f"3T4 {sq}" for sq in ("r1c3", "r3c1", "r3c2", "r3c3", "r3c4", "r4c3")
                    ],
                    "mark": [_cell("r2c3")],
                    "refuse": "tutorial.classic.whereRule",
                    "check": {"energy.0": 3},
                    "then": ["4R5 r4c4"],
                },
                {
                    "text": "tutorial.classic.stack",
                    "move": "2B1 r1c1",
                    "mark": [_cell("r1c1")],
                    "refuse": "tutorial.classic.stackRule",
                    "check": {"cities.0.squares.0.floors": 2, "inhabitants.0": 4},
                    "then": ["3L3 r3c3"],
                },
                {
                    "text": "tutorial.classic.resources",
                    "move": "4R1 r2c4",
                    "mark": [_cell("r2c4")],
                    "refuse": "tutorial.classic.resourcesRule",
                    "check": {"cities.0.squares.7.code": "S", "architects.0": []},
                    "then": ["1T5 r1c2"],
                },
                {"text": "tutorial.classic.round", "mark": ["#site"]},
            ],
        },
        {
            "id": "scoring",
            "title": "tutorial.scoring.title",
            "mode": "classic",
            "players": 2,
            "seed": 1,
            "learner": 0,
            "start": _TO_LAST_TURN,
            "steps": [
                {"text": "tutorial.scoring.intro"},
                {
                    "text": "tutorial.scoring.last",
                    "move": "4L1 r4c1",
                    "mark": [_cell("r4c1")],
                    "refuse": "tutorial.scoring.lastRule",
                    "check": {"cities.0.squares.12.code": "P"},
                    "then": ["4B2 x"],
                },
                {"text": "tutorial.scoring.buildings"},
                {"text": "tutorial.scoring.end"},
            ],
        },
        {
            "id": "expert",
            "title": "tutorial.expert.title",
            "mode": "expert",
            "players": 2,
            "seed": 2,
            "learner": 0,
            "steps": [
                {"text": "tutorial.expert.intro"},
                {
                    "text": "tutorial.expert.where",
                    "move": "5R2 r2c1",
                    "mark": [_cell("r2c1")],
                    "refuse": "tutorial.expert.whereRule",
                    "check": {"cities.0.squares.5.code": "O"},
                },
                {"text": "tutorial.expert.buildings"},
            ],
        },
    ]
}
