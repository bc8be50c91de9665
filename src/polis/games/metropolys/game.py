"""The Metropolys :class:`~polis.core.protocol.Game`: start, resume, determinize and score.

``GAME`` is the game's registration object (the ``polis.games`` entry point): the upper
layers find everything about Metropolys through it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any, ClassVar, Final

from polis.core.errors import InputError
from polis.core.moves import ActionSpace
from polis.core.protocol import Game
from polis.core.result import PlayerScore
from polis.core.rng import seeded_rng
from polis.core.view import View
from polis.games.metropolys.board import board_json
from polis.games.metropolys.cards import MODES, NEIGHBOURHOOD_CARDS, area_deck
from polis.games.metropolys.moves import SPACE, MetropolysMove
from polis.games.metropolys.options import parse_options
from polis.games.metropolys.scorefile import score_file
from polis.games.metropolys.setup import make_setup, public_setup
from polis.games.metropolys.state import MetropolysState
from polis.games.metropolys.view import MetropolysView

CardWeights = Mapping[int, Mapping[str, float]] | Sequence[Mapping[str, float] | None]


class MetropolysGame(Game):
    """Metropolys, Family and Expert, 2-4 players."""

    name: ClassVar[str] = "metropolys"
    title: ClassVar[str] = "Metropolys"
    modes: ClassVar[tuple[str, ...]] = MODES
    notation_examples: ClassVar[tuple[str, ...]] = ("7@12", "13@40", "pass")
    categories: ClassVar[Mapping[str, str]] = {
        "chic": "Trendy neighbourhood tokens",
        "metro": "Subway tokens",
        "metro_card": "Subway card",
        "archaeology": "Archaeological site tokens",
        "archaeology_card": "Archaeological site card",
        "area": "Area objective",
        "neighbourhood": "Neighbourhood objective",
        "highest": "Highest buildings",
    }
    tie_breaks: ClassVar[Mapping[str, str]] = {"built": "Buildings built"}
    plugins: ClassVar[Mapping[str, str]] = {
        "knowledge": "polis.games.metropolys.knowledge:MetropolysKnowledge",
        "compiled_batch": "polis.games.metropolys.compiled.observe:MetropolysTables",
        "observation": "polis.games.metropolys.observation:MetropolysEncoder",
        "chance": "polis.games.metropolys.chance:MetropolysDeal",
        "choices": "polis.games.metropolys.choices:legal_choices",
        "text": "polis.games.metropolys.render",
        "reveals": "polis.games.metropolys.reveals:reveals",
        "wire": "polis.games.metropolys.view_json",
        "read_view": "polis.games.metropolys.view_read:read_view",
        "reasons": "polis.games.metropolys.reasons:reasons",
    }

    def new_game(
        self,
        mode: str,
        players: int,
        *,
        seed: int | str | None = None,
        setup: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> MetropolysState:
        mode, players = self.check_table(mode, players)
        opts = parse_options(options)
        return MetropolysState(make_setup(mode, players, seeded_rng(seed), setup), opts)

    def action_space(self, mode: str) -> ActionSpace[MetropolysMove]:
        self.check_table(mode, 2)
        return SPACE

    def determinize(
        self,
        view: View,
        rng: random.Random,
        card_weights: CardWeights | None = None,
    ) -> MetropolysState:
        """Sample the secret cards the viewer cannot see, then replay the public moves.

        ``card_weights[p][card]`` (optional) weights player p's possible cards (area and
        neighbourhood names are distinct, so one mapping per player serves both); the joint
        draw is exact: each consistent deal has probability proportional to the product.
        """
        if not isinstance(view, MetropolysView):
            raise InputError("not a Metropolys view")
        mode, players = self.check_table(view.mode, view.players)
        viewer = view.player
        colours: list[str] | None = None
        if view.revealed is not None:  # the game is over: every card is known
            area = [a for a, _ in view.revealed]
            if mode == "expert":
                colours = [str(c) for _, c in view.revealed]
        else:
            area = _deal(
                area_deck(mode, players), players, viewer, view.area_card, rng, card_weights
            )
            if mode == "expert":
                colours = _deal(
                    NEIGHBOURHOOD_CARDS,
                    players,
                    viewer,
                    view.neighbourhood_card,
                    rng,
                    card_weights,
                )
        state = MetropolysState(public_setup(view, area, colours), view.options)
        for move in view.moves:
            state.apply(move)
        return state

    def score_file(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return score_file(data)

    def report_lines(self, report: Mapping[str, Any]) -> tuple[PlayerScore, ...]:
        """One line per player: the breakdown and buildings built (formats §2.3)."""
        return tuple(
            PlayerScore(
                total=p["total"],
                categories=dict(p["breakdown"]),
                tie_breaks={"built": p["built"]},
                report=p,
            )
            for p in report["players"]
        )

    def client_data(self) -> dict[str, Any]:
        """The board (fields, districts, statues, lakes, bridges) the web client draws."""
        return board_json()


def _deal(
    deck: Sequence[str],
    players: int,
    viewer: int | None,
    own: object,
    rng: random.Random,
    weights: CardWeights | None,
) -> list[str]:
    """One card per player: the viewer's own as known, the others drawn from what is left."""
    cards: list[str | None] = [None] * players
    if viewer is not None:
        if own not in deck:
            raise InputError(f"the view's own card {own!r} is not in the deck")
        cards[viewer] = str(own)
    others = [p for p in range(players) if cards[p] is None]
    left = [c for c in deck if c not in cards]
    if weights is None:
        drawn: Sequence[str] = rng.sample(left, len(others))
    else:
        deals = list(permutations(left, len(others)))
        scores = []
        for deal in deals:
            w = 1.0
            for p, card in zip(others, deal, strict=True):
                w *= _weight(weights, p, card)
            scores.append(w)
        if sum(scores) <= 0:
            drawn = rng.sample(left, len(others))
        else:
            drawn = rng.choices(deals, weights=scores)[0]
    for p, card in zip(others, drawn, strict=True):
        cards[p] = card
    return [str(c) for c in cards]


def _weight(weights: CardWeights, player: int, card: str) -> float:
    try:
        belief = weights[player]
    except (KeyError, IndexError):
        return 1.0
    if belief is None:
        return 1.0
    w = belief.get(card, 1.0)
    if w < 0:
        raise InputError(f"card weight of {card!r} for player {player} is negative")
    return float(w)


GAME: Final = MetropolysGame()
MetropolysState.game = GAME

__all__ = ["GAME", "MetropolysGame"]
