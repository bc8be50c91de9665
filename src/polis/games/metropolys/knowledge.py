"""What the bots know about Metropolys: field values, round odds, and a belief over cards.

Greedy value of a bid = chance to win the round with it x (what the field is worth to the
bidder - what spending the building costs). A field is worth its token (chic +3, metro +1
and a shot at the metro card, archaeology -1 and the -2 card), the bidder's own secret
card(s) if the field qualifies, and in Expert the size for the highest-building awards.
The chance to win is 1 when nobody still in the round can raise (no higher building or no
free neighbour), else it shrinks with each opponent who still can.

Belief: for every opponent a weight per secret card it may hold. Policy-based inference:
each of the opponent's moves (passes too) multiplies a card's weight by how likely that move
was had the opponent held the card, under the bots' own fast policy (a softmax over the
greedy values of every legal move, mixed with a uniform choice since people and other bots
play otherwise). A bid on a field the card rewards raises the card; passing up a field it
rewards lowers it. Determinizations are drawn from the belief
(``Metropolys.determinize(view, rng, card_weights)``). ``inference = "counts"`` keeps the
older rule (weights times ``1 + ALPHA`` per bid on a rewarded field), for comparison.

Searches in Family with 2 or 4 players also mix the learned value of ``value.py`` into each
playout's reward (``value_mix``).

Playouts evaluate a few bids per move, millions of times a search: the values read card
points tabulated per card and field at import and the state's own lists (this module is
part of the game's package), never the view or per-call string comparisons.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Final, cast

from polis.core.moves import Move
from polis.core.parts.knowledge import Knowledge
from polis.core.protocol import Game, GameState
from polis.core.view import View
from polis.games.metropolys.board import (
    ADJACENT,
    COLOUR,
    DISTRICT,
    DISTRICT_FIELDS,
    NUM_FIELDS,
    ON_BRIDGE,
    ON_LAKE,
    ON_STATUE,
    OUTSKIRTS,
    SIZE_OF,
    TOKENS,
)
from polis.games.metropolys.cards import (
    EXPERT_AREA_CARDS,
    FAMILY_AREA_CARDS,
    NEIGHBOURHOOD_CARDS,
    area_deck,
)
from polis.games.metropolys.moves import PASS, MetropolysMove
from polis.games.metropolys.setup import public_setup
from polis.games.metropolys.state import FREE, OUT_OF_PLAY, VALUES_OF, MetropolysState
from polis.games.metropolys.value import position_value
from polis.games.metropolys.view import MetropolysView

#: Belief update strength of an opening bid on a field the card rewards (raises count half).
ALPHA = 1.0
#: Points lost per value of the building spent (high buildings are what wins later rounds).
SPEND_COST = 0.22
#: Chance that an opponent who can raise does raise.
RAISE_CHANCE = 0.55
TOKEN_VALUE = {None: 0.0, "chic": 3.0, "metro": 2.0, "archaeology": -2.0}
PLAYOUT_EPSILON = 0.15
PLAYOUT_SAMPLES = 4
TREE_WIDTH = 8
#: The opponent model: softmax temperature (points) over greedy bid values, and the share
#: of moves taken as uniformly random (a model that is never certain cannot be fooled for
#: ever by an opponent that plays otherwise).
POLICY_TEMPERATURE = 1.0
POLICY_NOISE = 0.3


def qualifies(card: str, field: int) -> float:
    """How much ``card`` rewards a building on ``field`` on its own (0 or a share of a group)."""
    if card in NEIGHBOURHOOD_CARDS:
        return 1.0 if COLOUR[field] == card else 0.0
    if card == "bridges":
        return 1.0 if ON_BRIDGE[field] else 0.0
    if card == "statues":
        return 1.0 if ON_STATUE[field] else 0.0
    if card == "lakes":
        return 1.0 if ON_LAKE[field] else 0.0
    if card == "outskirts":
        return 1.0 if field in OUTSKIRTS else 0.0
    return 0.0  # districts, chains: rewarded by clusters, not by single fields


#: Expert: what a building's size is worth towards the highest-building awards.
SIZE_BONUS = (0.0, 0.8, 1.8)

#: Points per qualifying building, roughly (Expert groups spread over their members).
_CARD_POINTS = {
    "family": 3.0,
    "bridges": 2.0,
    "statues": 2.3,
    "lakes": 1.7,
    "districts": 1.3,
    "chains": 1.3,
}


#: Per version, per card, per field: what the card gives a building there on its own (the
#: values of :func:`card_bonus` without its cluster part), tabulated for the hot paths.
_FAMILY_POINTS: Final = {
    c: tuple(3.0 * qualifies(c, f) for f in range(NUM_FIELDS)) for c in FAMILY_AREA_CARDS
}
_EXPERT_POINTS: Final = {
    c: tuple(
        (2.0 if COLOUR[f] == c else 0.0)
        if c in NEIGHBOURHOOD_CARDS
        else _CARD_POINTS[c] * qualifies(c, f)
        for f in range(NUM_FIELDS)
    )
    for c in (*EXPERT_AREA_CARDS, *NEIGHBOURHOOD_CARDS)
}
#: TOKEN_VALUE by the state's token code (0 none, then TOKENS).
_TOKEN_BY_CODE: Final = tuple(TOKEN_VALUE[t] for t in (None, *TOKENS))


def field_value(state: MetropolysState, player: int, field: int, value: int) -> float:
    """What building ``value`` on ``field`` is worth to ``player`` (from its own cards)."""
    setup = state._facts.setup
    worth = _TOKEN_BY_CODE[state._tokens[field]]
    card = setup.area_cards[player]
    colours = setup.neighbourhood_cards
    if colours is None:
        return worth + _FAMILY_POINTS[card][field]
    worth += card_bonus(state, player, card, field)
    worth += _EXPERT_POINTS[colours[player]][field]
    return worth + SIZE_BONUS[SIZE_OF[value]]


def card_bonus(state: MetropolysState, player: int, card: str, field: int) -> float:
    """The part of :func:`field_value` that ``player``'s secret ``card`` decides (an area
    card, or in Expert a neighbourhood card), for ``card`` in place of its real one."""
    if state._facts.setup.neighbourhood_cards is None:
        return _FAMILY_POINTS[card][field]
    worth = _EXPERT_POINTS[card][field]
    if card == "chains" or card == "districts":
        near = ADJACENT[field] if card == "chains" else DISTRICT_FIELDS[DISTRICT[field]]
        cells, bids = state._cells, state._bids
        mine = 0
        for g in near:
            c = cells[g]
            if c < OUT_OF_PLAY and c >> 4 == player and g not in bids:  # built, not a bid
                mine += 1
        worth += _CARD_POINTS[card] * min(mine, 2) * 0.7
    return worth


def move_likelihoods(state: MetropolysState, move: Move, cards: Sequence[str]) -> list[float]:
    """How likely the player to move at ``state`` was to play ``move``, per card it may hold.

    The fast policy: a softmax (temperature :data:`POLICY_TEMPERATURE`) over the greedy value
    of every legal move with that card, mixed with a uniform choice (:data:`POLICY_NOISE`).
    What does not depend on the card (the chance to win the round, tokens, the building's
    cost) is computed once per move.
    """
    player = state.current_player()
    legal = state.legal_moves()
    rival = rivals(state, player)
    rows: list[tuple[float, float, int]] = []  # (chance, value without the card, field)
    observed = -1
    for i, m in enumerate(legal):
        if m is move:
            observed = i
        if m is PASS:
            rows.append((0.0, 0.0, -1))
            continue
        bid = m
        p = win_chance(state, rival, bid.field, bid.value)
        own = TOKEN_VALUE[state.token_at(bid.field)] - SPEND_COST * bid.value
        if state.setup_data.neighbourhood_cards is not None:
            own += SIZE_BONUS[SIZE_OF[bid.value]]
        rows.append((p, p * own - (1 - p) * 0.2, bid.field))
    if observed < 0:
        return [1.0] * len(cards)
    n = len(rows)
    inv_t = 1.0 / POLICY_TEMPERATURE
    out = []
    for card in cards:
        bonus: dict[int, float] = {}
        values = []
        for p, v, field in rows:
            if field >= 0 and p > 0.0:
                b = bonus.get(field)
                if b is None:
                    b = bonus[field] = card_bonus(state, player, card, field)
                v += p * b
            values.append(v * inv_t)
        top = max(values)
        total = 0.0
        for v in values:
            total += math.exp(v - top)
        chosen = math.exp(values[observed] - top) / total
        out.append(POLICY_NOISE / n + (1.0 - POLICY_NOISE) * chosen)
    return out


def rivals(state: MetropolysState, player: int) -> list[tuple[int, ...]]:
    """Supplies of the opponents still in the round (what can outbid ``player``)."""
    passed, supply = state._passed, state._supply
    return [
        VALUES_OF[supply[q]]
        for q in range(state._facts.players)
        if q != player and not passed >> q & 1
    ]


def win_chance(
    state: MetropolysState, rival: Sequence[tuple[int, ...]], field: int, value: int
) -> float:
    """Chance that a bid of ``value`` on ``field`` is the one built this round, against the
    ``rival`` supplies (see :func:`rivals`)."""
    cells = state._cells
    for g in ADJACENT[field]:
        if cells[g] == FREE:  # in play and empty: somebody can still raise there
            break
    else:
        return 1.0
    chance = 1.0
    for supply in rival:
        if supply and supply[-1] > value:
            higher = len(supply) - bisect_right(supply, value)
            chance *= 1.0 - RAISE_CHANCE * min(1.0, 0.4 + higher / 6)
    return chance


def bid_value(
    state: MetropolysState,
    move: MetropolysMove,
    player: int,
    rival: Sequence[tuple[int, ...]] | None = None,
) -> float:
    """Expected gain of ``move`` (a bid) for ``player``; passing is worth 0.

    ``rival`` is :func:`rivals` of the position, computed once when many bids are compared.
    """
    if move is PASS:
        return 0.0
    field, value = move.field, move.value
    p = win_chance(state, rivals(state, player) if rival is None else rival, field, value)
    return p * (field_value(state, player, field, value) - SPEND_COST * value) - (1 - p) * 0.2


class MetropolysKnowledge(Knowledge):
    """Greedy bid evaluation, biased playouts and the belief over opponents' secret cards."""

    pool_size = 12
    score_scale = 6.0
    compiled = "polis.games.metropolys.compiled"
    #: Half of each playout's reward is the learned value (Family 2p and 4p; see ``value.py``).
    value_mix = 0.5
    #: At two players the compiled search's root weighs the best 48 bids, not 12: against
    #: ``mcts-python`` (1.7 s of CPU a move, Family 2p, the same deals) ``hard`` won 17.5 of
    #: 20 games with 48, 14 of the same 20 with 24 and 4 of their first 10 with 12; with 12,
    #: its 12x the iterations had bought nothing (10 of 21). The greedy order of a single
    #: sample rarely puts the best bid among 12 of hundreds (29 Nov 2026). At three and four
    #: players it weighs :attr:`compiled_root_width_many` (:meth:`search_width`).
    compiled_root_width = 48
    #: The compiled search's root at three and four players: 24 bids, between the 12 that
    #: miss good ones and the 48 that did worse (measured at four: :meth:`search_width`).
    compiled_root_width_many = 24
    #: How the belief learns from the opponents' moves: "policy" (likelihood under the
    #: bots' fast policy) or "counts" (the older per-bid multiplier; for comparisons).
    inference = "policy"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._replay: MetropolysState | None = None
        self._seen = 0
        self.belief: list[dict[str, float]] = []

    # -- belief ---------------------------------------------------------------------------
    def observe(self, view: View) -> None:
        """Update the belief with the public moves played since the last decision."""
        assert isinstance(view, MetropolysView)
        moves = view.moves
        if self._replay is None or self._seen > len(moves):
            self._start(view)
        replay = self._replay
        assert replay is not None
        me = view.player
        for move in moves[self._seen :]:
            mover = replay.current_player()
            if mover == me:
                replay.apply(move)
                continue
            belief = self.belief[mover]
            if self.inference == "policy":
                cards = list(belief)
                for card, likely in zip(cards, move_likelihoods(replay, move, cards), strict=True):
                    belief[card] *= likely
            elif move is not PASS:
                weight = ALPHA if not replay.bids else ALPHA / 2
                for card in belief:
                    belief[card] *= 1.0 + weight * qualifies(card, move.field)
            replay.apply(move)
            total = sum(belief.values())
            for card in belief:
                belief[card] /= total
        self._seen = len(moves)

    def search_width(self) -> int:
        """The compiled root: 48 bids at two players, 24 at three and four. At four
        (Expert, three ``mcts-python``, 1.7 s of CPU a move) ``hard`` took a mean rank of
        2.58 [2.09, 3.06] in 20 games with 48, 2.21 [1.90, 2.53] in 40 with 12 and
        2.02 [1.84, 2.20] in 112 with 24 (parity 2.5; 29-30 Nov 2026, ``docs/bots.md``).
        The Python search keeps 12."""
        if self._search is not None and len(self.belief) > 2:  # a belief per player
            return self.compiled_root_width_many
        return super().search_width()

    def _start(self, view: MetropolysView) -> None:
        mode, players = view.mode, view.players
        me = view.player
        deck = list(area_deck(mode, players))
        own = {view.area_card, view.neighbourhood_card}
        cards = [c for c in deck if c not in own]
        if mode == "expert":
            cards += [c for c in NEIGHBOURHOOD_CARDS if c not in own]
        self.belief = [
            {} if p == me else dict.fromkeys(cards, 1.0 / len(cards)) for p in range(players)
        ]
        # A replay state for knowing who made each public move (cards are placeholders).
        setup = public_setup(
            view,
            deck[:players] if mode == "family" else EXPERT_AREA_CARDS[:players],
            NEIGHBOURHOOD_CARDS[:players] if mode == "expert" else None,
        )
        self._replay = MetropolysState(setup, view.options)
        self._seen = 0

    def determinize(self, view: View, rng: random.Random) -> GameState:
        weights = [b or None for b in self.belief] if self.belief else None
        return self.game.determinize(view, rng, card_weights=weights)  # type: ignore[call-arg]

    # -- evaluation -----------------------------------------------------------------------
    def move_values(self, view: View, legal: Sequence[Move], rng: random.Random) -> list[float]:
        state = self.sample(view, rng)
        assert isinstance(state, MetropolysState) and view.player is not None
        player = view.player
        rival = rivals(state, player)
        return [bid_value(state, cast(MetropolysMove, m), player, rival) for m in legal]

    def playout_move(self, state: GameState, rng: random.Random) -> Move:
        if rng.random() < PLAYOUT_EPSILON:
            return state.random_move(rng)
        assert isinstance(state, MetropolysState)
        player = state.current_player()
        rival = rivals(state, player)
        best = state.random_move(rng)
        best_value = bid_value(state, best, player, rival)
        for _ in range(PLAYOUT_SAMPLES - 1):
            move = state.random_move(rng)
            value = bid_value(state, move, player, rival)
            if value > best_value:
                best, best_value = move, value
        if state._bids and best_value < 0:
            return PASS
        return best

    def tree_moves(self, state: GameState, rng: random.Random) -> list[Move]:
        """The best few of a random sample of legal moves (plus pass): hundreds of opening
        bids would keep the tree one ply deep; availability counts absorb the sampling.

        On the compiled engine when it is available (the same values and the same way of
        sampling: ``compiled.search.tree_moves``); this code is the reference."""
        assert isinstance(state, MetropolysState)
        if self._search is not None:
            return self._search.tree_moves(state, rng)  # type: ignore[no-any-return]
        player = state.current_player()
        legal = state.legal_moves()
        if len(legal) <= TREE_WIDTH:
            return list(legal)
        sample = cast(list[MetropolysMove], rng.sample(legal, min(len(legal), 3 * TREE_WIDTH)))
        rival = rivals(state, player)
        values = {m: bid_value(state, m, player, rival) for m in sample}
        ranked = sorted(sample, key=values.__getitem__, reverse=True)
        moves: list[Move] = [*ranked[:TREE_WIDTH]]
        if state.bids and PASS not in moves:
            moves.append(PASS)
        return moves

    def leaf_value(self, state: GameState) -> tuple[float, ...] | None:
        assert isinstance(state, MetropolysState)
        if self._search is not None:  # the same numbers on the compiled engine
            return self._search.position_value(state)  # type: ignore[no-any-return]
        return position_value(state)

    def reuse_key(self, view: View) -> Hashable | None:
        return 0  # nothing is ever revealed during the game


if TYPE_CHECKING:
    from polis.core.parts import KnowledgeFactory

    _PART: KnowledgeFactory = MetropolysKnowledge  # mypy checks it against the interface
