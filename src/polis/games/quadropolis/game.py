"""The Quadropolis :class:`~polis.core.protocol.Game`: start, resume, determinize and score.

``GAME`` is the game's registration object (the ``polis.games`` entry point): the upper
layers find everything about Quadropolis through it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from importlib import resources
from typing import Any, ClassVar, Final

from polis.core.errors import InputError, PolisError
from polis.core.moves import ActionSpace
from polis.core.protocol import JSON, Game
from polis.core.result import PlayerScore
from polis.core.rng import seeded_rng
from polis.core.view import View
from polis.games.quadropolis.moves import SPACES, QuadropolisMove
from polis.games.quadropolis.options import parse_options
from polis.games.quadropolis.setup import Setup, make_setup
from polis.games.quadropolis.state import QuadropolisState
from polis.games.quadropolis.tiles import FACE_UP, MODES, POOLS, TILES
from polis.games.quadropolis.view import FACE_DOWN, QuadropolisView


class QuadropolisGame(Game):
    """Quadropolis, Classic (4 rounds, 4x4 city) and Expert (5 rounds, 4x5 city)."""

    name: ClassVar[str] = "quadropolis"
    title: ClassVar[str] = "Quadropolis"
    modes: ClassVar[tuple[str, ...]] = MODES
    notation_examples: ClassVar[tuple[str, ...]] = ("3L4 r2c1", "2T5 x", "1R1 -")
    categories: ClassVar[Mapping[str, str]] = {
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
    tie_breaks: ClassVar[Mapping[str, str]] = {
        "inhabitants_on_buildings": "Inhabitants on buildings",
        "empty_squares": "Empty squares (fewer wins)",
    }
    plugins: ClassVar[Mapping[str, str]] = {
        "knowledge": "polis.games.quadropolis.knowledge:QuadropolisKnowledge",
        "compiled_batch": "polis.games.quadropolis.compiled.observe:QuadropolisTables",
        "observation": "polis.games.quadropolis.observation:QuadropolisEncoder",
        "chance": "polis.games.quadropolis.chance:QuadropolisDeal",
        "choices": "polis.games.quadropolis.choices:legal_choices",
        "text": "polis.games.quadropolis.render",
        "reveals": "polis.games.quadropolis.reveals:reveals",
        "wire": "polis.games.quadropolis.view_json",
        "read_view": "polis.games.quadropolis.view_read:read_view",
        "reasons": "polis.games.quadropolis.reasons:reasons",
    }

    def new_game(
        self,
        mode: str,
        players: int,
        *,
        seed: int | str | None = None,
        setup: Mapping[str, JSON] | None = None,
        options: Mapping[str, JSON] | None = None,
    ) -> QuadropolisState:
        mode, players = self.check_table(mode, players)
        opts = parse_options(options)
        return QuadropolisState(make_setup(mode, players, seeded_rng(seed), setup), opts)

    def action_space(self, mode: str) -> ActionSpace[QuadropolisMove]:
        try:
            return SPACES[mode]
        except KeyError:
            raise InputError(
                f"unknown Quadropolis mode {mode!r}: choose classic or expert"
            ) from None

    def determinize(self, view: View, rng: random.Random) -> QuadropolisState:
        """Sample the hidden tiles (face-down squares, future rounds), then replay the moves."""
        if not isinstance(view, QuadropolisView):
            raise InputError("not a Quadropolis view")
        mode, players = self.check_table(view.mode, view.players)
        public = view.public_rounds
        up = FACE_UP[players]
        current = len(public) - 1
        rounds: list[tuple[int, ...]] = []
        for r, pool in enumerate(POOLS[mode]):
            if r >= len(public):
                order = list(pool)
                rng.shuffle(order)
                rounds.append(tuple(order))
                continue
            layout = list(public[r])
            hidden = [i for i in pool if not up[i]]
            rng.shuffle(hidden)
            if r == current and not view.finished:
                # Face-down tiles are still on the site: respect their visible backs.
                for q in range(25):
                    if layout[q] == FACE_DOWN:
                        back = view.backs[q]
                        pick = next((i for i in hidden if TILES[i].back == back), None)
                        if pick is None:
                            raise InputError(f"no face-down tile with back {back!r} is left")
                        hidden.remove(pick)
                        layout[q] = pick
            else:
                for q in range(25):
                    if layout[q] == FACE_DOWN:
                        layout[q] = hidden.pop()
            rounds.append(tuple(layout))
        state = QuadropolisState(
            Setup(mode, players, view.starting_player, tuple(rounds)), view.options
        )
        try:
            for move in view.moves:
                state.apply(move)
        except PolisError as exc:
            raise InputError(f"the view is not a reachable position: {exc}") from None
        return state

    def score_file(self, data: Mapping[str, JSON]) -> dict[str, JSON]:
        from polis.games.quadropolis.scorefile import score_file

        return score_file(data)

    def report_lines(self, report: Mapping[str, JSON]) -> tuple[PlayerScore, ...]:
        """One line: the city's categories and tie-breaks (formats §1.3)."""
        return (
            PlayerScore(
                total=report["total"],
                categories=dict(report["categories"]),
                tie_breaks={k: report[k] for k in self.tie_breaks},
                report=report,
            ),
        )

    def client_data(self) -> dict[str, Any]:
        """The city mats (districts, square numbers) the web client draws."""
        text = resources.files(__package__).joinpath("data/mats.json").read_text("utf-8")
        data: dict[str, Any] = json.loads(text)
        return data


GAME: Final = QuadropolisGame()
QuadropolisState.game = GAME

__all__ = ["GAME", "QuadropolisGame"]
