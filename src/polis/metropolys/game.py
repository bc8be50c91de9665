"""The Metropolys :class:`~polis.core.protocol.Game`: start, resume, determinize and score."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any, ClassVar, Final

from polis.core.errors import InputError
from polis.core.protocol import Game, GameResult
from polis.core.rng import seeded_rng
from polis.metropolys import notation
from polis.metropolys.cards import MODES, NEIGHBOURHOOD_CARDS, area_deck, parse_options
from polis.metropolys.endpos import parse_end_position
from polis.metropolys.scoring import score_report
from polis.metropolys.setup import check_mode_players, make_setup
from polis.metropolys.state import MetroResult, MetroState

#: Notation -> move, so replays (determinize) skip the parser.
_PARSED: Final = {notation.to_str(m): m for m in range(notation.NUM_ACTIONS) if m == 0 or m & 15}

CardWeights = Mapping[int, Mapping[str, float]] | Sequence[Mapping[str, float] | None]


class Metropolys(Game):
    """Metropolys, Family and Expert, 2-4 players."""

    name: ClassVar[str] = "metropolys"
    modes: ClassVar[tuple[str, ...]] = MODES

    def new_game(
        self,
        mode: str,
        players: int,
        *,
        seed: int | None = None,
        setup: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> MetroState:
        mode, players = check_mode_players(mode, players)
        opts = parse_options(options)
        return MetroState(make_setup(mode, players, seeded_rng(seed), setup), opts)

    def determinize(
        self,
        view: Mapping[str, Any],
        rng: random.Random,
        card_weights: CardWeights | None = None,
    ) -> MetroState:
        """Sample the secret cards the viewer cannot see, then replay the public moves.

        ``card_weights[p][card]`` (optional) weights player p's possible cards (area and
        neighbourhood names are distinct, so one mapping per player serves both); the joint
        draw is exact: each consistent deal has probability proportional to the product.
        """
        try:
            mode, players = check_mode_players(view["mode"], view["players"])
            viewer = view["player"]
            public = {
                "first_player": view["first_player"],
                "unused_districts": view["unused_districts"],
                "tokens": view["layout"],
            }
            moves = view["moves"]
            options = view.get("options")
        except (KeyError, TypeError) as exc:
            raise InputError(f"not a Metropolys view: missing {exc}") from None
        if viewer is not None and (isinstance(viewer, bool) or not 0 <= viewer < players):
            raise InputError(f"no player {viewer!r} in a {players}-player game")
        own_area = view.get("area_card") if viewer is not None else None
        own_colour = view.get("neighbourhood_card") if viewer is not None else None
        public["area_cards"] = _deal(
            area_deck(mode, players), players, viewer, own_area, rng, card_weights
        )
        if mode == "expert":
            public["neighbourhood_cards"] = _deal(
                NEIGHBOURHOOD_CARDS, players, viewer, own_colour, rng, card_weights
            )
        state = MetroState(make_setup(mode, players, rng, public), parse_options(options))
        for text in moves:
            move = _PARSED.get(text)
            if move is None:
                move = notation.parse(text)
            state.apply(move)
        return state

    def score_file(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return score_report(parse_end_position(data))

    def result_json(self, result: GameResult) -> dict[str, Any]:
        mode = result.mode if isinstance(result, MetroResult) else _guess_mode(result)
        return {
            "game": self.name,
            "mode": mode,
            "players": [dict(r) for r in result.reports],
            "ranking": [list(g) for g in result.ranking],
        }

    def from_record(self, record: Mapping[str, Any]) -> MetroState:
        state = super().from_record(record)
        assert isinstance(state, MetroState)
        return state


def _guess_mode(result: GameResult) -> str:
    for report in result.reports:
        b = report.get("breakdown", {}) if isinstance(report, Mapping) else {}
        if b.get("neighbourhood") or b.get("highest"):
            return "expert"
    return "family"


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


GAME: Final = Metropolys()
MetroState.game = GAME

__all__ = ["GAME", "Metropolys"]
