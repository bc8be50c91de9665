"""Bots on the real engines: legal play, decisions from views only, the Metropolys belief."""

from __future__ import annotations

import json
import math
import random
from typing import Any, ClassVar, cast

import pytest

from polis.arena.match import play_table
from polis.arena.schedule import schedule
from polis.bots import make_agent
from polis.bots.knowledge import knowledge_for
from polis.core.registry import get_game

SETTINGS = [
    ("quadropolis", "classic"),
    ("quadropolis", "expert"),
    ("metropolys", "family"),
    ("metropolys", "expert"),
]
SPECS = ["greedy", "montecarlo:8i", "mcts:8i"]


def engine(name: str) -> Any:
    return get_game(name)


def advance(state: Any, moves: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(state.random_move(rng))


@pytest.mark.parametrize(("name", "mode"), SETTINGS)
@pytest.mark.parametrize("spec", SPECS)
def test_agents_return_legal_moves(name: str, mode: str, spec: str) -> None:
    game = engine(name)
    for seed in range(3):
        state = game.new_game(mode, 3, seed=seed)
        advance(state, 7 * seed, seed)
        p = state.current_player()
        agent, budget = make_agent(spec, seed)
        move = agent.act(state.view(p), state.legal_moves(), game, budget)
        assert move in state.legal_moves()


def hidden_twin(name: str, mode: str, seed: int) -> tuple[Any, Any]:
    """Two games equal in everything player 0 may see, different in what it may not."""
    game = engine(name)
    a = game.new_game(mode, 3, seed=seed)
    setup = a.setup()
    if name == "metropolys":
        setup["area_cards"] = [
            setup["area_cards"][0],
            setup["area_cards"][2],
            setup["area_cards"][1],
        ]
    else:
        setup["rounds"] = [setup["rounds"][0], *[list(reversed(r)) for r in setup["rounds"][1:]]]
    b = game.new_game(mode, 3, setup=setup)
    advance(a, 5, seed)
    for move in a.history:
        b.apply(move)
    return a, b


@pytest.mark.parametrize(("name", "mode"), SETTINGS)
@pytest.mark.parametrize("spec", SPECS)
def test_decisions_depend_on_the_view_only(name: str, mode: str, spec: str) -> None:
    game = engine(name)
    for seed in range(3):
        a, b = hidden_twin(name, mode, seed)
        p = a.current_player()
        assert a.view(p) == b.view(p) or p != 0
        if a.view(p) != b.view(p):
            continue  # the hidden difference is this player's own card: not a twin for p
        moves = []
        for state in (a, b):
            agent, budget = make_agent(spec, 100 + seed)
            moves.append(agent.act(state.view(p), state.legal_moves(), game, budget))
        assert moves[0] == moves[1]


class Spy:
    """Checks every view it is given against the truth of the state behind it."""

    name = "spy"
    views: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: Any, legal: Any, game: Any, budget: Any) -> Any:
        Spy.views.append(view.to_json())
        return legal[self.rng.randrange(len(legal))]


def test_arena_gives_agents_views_without_hidden_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    engine("metropolys")
    from polis.bots import factory

    monkeypatch.setitem(factory.AGENTS, "spy", Spy)
    Spy.views = []
    table = schedule(3, 1, 4, 1)[0]
    outcome = play_table("metropolys", "family", 4, ["spy"], table)
    state = get_game("metropolys").new_game("family", 4, seed=table.setup_seed)
    cards = state.setup()["area_cards"]
    assert outcome.moves == len(Spy.views)
    for view in Spy.views:
        me = view["player"]
        assert view["area_card"] == cards[me]
        text = json.dumps(view)
        for q, card in enumerate(cards):
            if q != me and card not in (cards[me],):
                assert f'"{card}"' not in text


def test_arena_warms_each_game_once_before_any_agent_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Loading (or compiling) the compiled engine must not fall inside an agent's first
    move: the arena warms the game once per process, before the first table's first move."""
    from polis.arena import match
    from polis.bots import factory

    events: list[str] = []

    class Mover(Spy):
        def act(self, view: Any, legal: Any, game: Any, budget: Any) -> Any:
            events.append("move")
            return legal[self.rng.randrange(len(legal))]

    monkeypatch.setitem(factory.AGENTS, "spy", Mover)
    monkeypatch.setattr(match, "warm_game", lambda game: events.append(f"warm {game.name}"))
    match._warmed.cache_clear()
    for table in schedule(5, 1, 2, 2):
        match.play_table("metropolys", "family", 2, ["spy"], table)
    match._warmed.cache_clear()  # later tests warm for real
    assert events[0] == "warm metropolys"
    assert events.count("warm metropolys") == 1 and events.count("move") > 10


def test_metropolys_belief_follows_the_bids() -> None:
    game = engine("metropolys")
    from polis.games.metropolys import PASS
    from polis.games.metropolys.board import ON_BRIDGE

    state = game.new_game("family", 2, seed=4, setup=None)
    setup = state.setup()
    mine = setup["area_cards"][0]
    knowledge = knowledge_for(game)
    rng = random.Random(0)
    # Player 1 bids on bridge fields whenever it can; player 0 passes or opens anywhere.
    for _ in range(60):
        if state.is_terminal():
            break
        p = state.current_player()
        legal = state.legal_moves()
        if p == 1:
            bridge = [m for m in legal if m is not PASS and ON_BRIDGE[m.field]]
            state.apply(bridge[0] if bridge else legal[0])
        elif state.bids:
            state.apply(PASS)
        else:
            state.apply(rng.choice(legal))
    knowledge.observe(state.view(0))
    belief = knowledge.belief[1]
    if mine != "bridges":
        assert max(belief, key=belief.__getitem__) == "bridges"
    assert knowledge.belief[0] == {}
    assert abs(sum(belief.values()) - 1) < 1e-9


def test_metropolys_win_chance_counts_only_rivals_who_can_raise() -> None:
    game = engine("metropolys")
    from polis.games.metropolys.board import ADJACENT
    from polis.games.metropolys.knowledge import bid_value, rivals, win_chance

    state = game.new_game("expert", 4, seed=3)
    me = state.current_player()
    field = next(
        f for f in range(55) if state.in_play(f) and any(state.in_play(g) for g in ADJACENT[f])
    )
    assert len(rivals(state, me)) == 3  # nobody has passed yet
    assert win_chance(state, [], field, 5) == 1.0
    assert win_chance(state, [(1, 2, 3, 4, 5)], field, 5) == 1.0  # nobody can go higher
    one = win_chance(state, [(6, 7)], field, 5)
    two = win_chance(state, [(6, 7), (6, 7, 8, 9)], field, 5)
    assert 0.0 < two < one < 1.0
    # Rivals computed once for many bids give the same values as computed per bid.
    rival = rivals(state, me)
    for move in state.legal_moves()[:40]:
        assert bid_value(state, move, me, rival) == bid_value(state, move, me)


def _plain_field_value(state: Any, player: int, field: int, value: int) -> float:
    """field_value written straight from the rules of thumb in the knowledge module's doc,
    through the state's public accessors (the module itself reads tables and the lists)."""
    from polis.games.metropolys.board import ADJACENT, COLOUR, DISTRICT, DISTRICT_FIELDS, SIZE_OF
    from polis.games.metropolys.knowledge import _CARD_POINTS, SIZE_BONUS, TOKEN_VALUE, qualifies

    setup = state.setup_data
    worth = TOKEN_VALUE[state.token_at(field)]
    card = setup.area_cards[player]
    if setup.neighbourhood_cards is None:
        return worth + 3.0 * qualifies(card, field)
    area = _CARD_POINTS[card] * qualifies(card, field)
    if card in ("chains", "districts"):
        near = ADJACENT[field] if card == "chains" else DISTRICT_FIELDS[DISTRICT[field]]
        mine = 0
        for g in near:
            b = state.building_at(g)
            if b is not None and b[0] == player and b[2]:
                mine += 1
        area += _CARD_POINTS[card] * min(mine, 2) * 0.7
    worth += area
    worth += 2.0 if COLOUR[field] == setup.neighbourhood_cards[player] else 0.0
    return worth + SIZE_BONUS[SIZE_OF[value]]


@pytest.mark.parametrize(("mode", "players"), [("family", 2), ("expert", 2), ("expert", 4)])
def test_metropolys_tabulated_values_are_the_plain_ones(mode: str, players: int) -> None:
    """The playout policy's tables and list reads give exactly the plain values (floats
    equal, so the bots choose the same moves as before the tables)."""
    from polis.games.metropolys.board import ADJACENT
    from polis.games.metropolys.knowledge import field_value, rivals, win_chance
    from polis.games.metropolys.moves import PASS

    game = engine("metropolys")
    rng = random.Random(mode + str(players))
    checked = 0
    for deal in range(6):
        state = game.new_game(mode, players, seed=deal)
        while not state.is_terminal():
            me = state.current_player()
            if rng.random() < 0.3:
                passed = state.passed
                plain_rivals = [
                    state.supply(q) for q in range(players) if q != me and q not in passed
                ]
                assert rivals(state, me) == plain_rivals
                for move in state.legal_moves():
                    if move is PASS:
                        continue
                    for p in range(players):
                        assert field_value(state, p, move.field, move.value) == (
                            _plain_field_value(state, p, move.field, move.value)
                        )
                    free_next = any(
                        state.in_play(g) and state.building_at(g) is None
                        for g in ADJACENT[move.field]
                    )
                    chance = win_chance(state, plain_rivals, move.field, move.value)
                    assert free_next or chance == 1.0
                    checked += 1
            state.apply(state.random_move(rng))
    assert checked > 200


class _City:
    """The few state accessors a Quadropolis playout reads, for a city made to order."""

    mode = "expert"
    num_players = 2

    def __init__(self, rows: str, inhabitants: int, energy: int, turns: int = 0) -> None:
        self.rows, self.res, self.turns_played = rows, (inhabitants, energy), turns

    def kinds(self, player: int) -> str:
        return self.rows

    def resources(self, player: int) -> tuple[int, int]:
        return self.res

    def floors_at(self, player: int, square: int) -> int:
        return 1 if self.rows[square] in "TO" else 0


def test_quadropolis_playouts_weigh_the_resources_a_city_lacks() -> None:
    from polis.games.quadropolis.knowledge import Builder
    from polis.games.quadropolis.tiles import TILE_INDEX

    tower, factory = TILE_INDEX["R1-TB-01"], TILE_INDEX["R1-FA-01"]  # gives 2 inh / 3 energy

    def gain(rows: str, inh: int, en: int, tile: int, square: int, turns: int = 0) -> float:
        return Builder(cast(Any, _City(rows, inh, en, turns)), 0).gain(tile, square)

    waiting = "F" + "." * 19  # a Factory without its inhabitant
    # The Tower's inhabitants are worth more where a Factory waits for one.
    assert gain(waiting, 0, 3, tower, 10) > gain(waiting, 1, 3, tower, 10)
    # A Factory with no spare inhabitant waits; with one spare it does not.
    assert gain("." * 20, 0, 0, factory, 10) < gain("." * 20, 1, 0, factory, 10)
    # A new floor needs no energy of its own (A8); a new Tower Block does.
    stacked = "." * 10 + "T" + "." * 9
    assert gain(stacked, 1, 0, tower, 10) == gain(stacked, 1, 5, tower, 10)
    assert gain(stacked, 1, 0, tower, 11) < gain(stacked, 1, 5, tower, 11)
    # Spare energy is a hope early and a penalty late (2 players, Expert: 40 turns).
    assert gain("." * 20, 1, 0, factory, 10) > 0 > gain("." * 20, 1, 0, factory, 10, turns=39)


def test_metropolys_policy_inference_weighs_moves_by_the_card() -> None:
    """A bid on a bridge is likelier for a holder of "bridges" than for any card that does
    not reward that field; passing up every bridge makes "bridges" less likely than a card
    none of the offered fields rewards."""
    game = engine("metropolys")
    from polis.games.metropolys import PASS
    from polis.games.metropolys.board import ON_BRIDGE
    from polis.games.metropolys.knowledge import move_likelihoods, qualifies

    state = game.new_game("family", 2, seed=4)
    legal = state.legal_moves()
    bridge = next(m for m in legal if m is not PASS and ON_BRIDGE[m.field])
    others = [c for c in ("lakes", "statues", "outskirts") if not qualifies(c, bridge.field)]
    assert others
    cards = ["bridges", *others]
    likely = move_likelihoods(state, bridge, cards)
    assert all(likely[0] > x for x in likely[1:])
    # a raise is possible now: passing it up says the passer's card does not reward the field
    state.apply(bridge)
    passed = move_likelihoods(state, PASS, cards)
    raises = [m for m in state.legal_moves() if m is not PASS]
    if raises:
        assert passed[0] < max(passed[1:])


def test_rewards_prefer_a_sure_second_place_at_four_players() -> None:
    """At four players both games' searches value a sure second place above winning one
    game in four and coming last in the others; at two players the usual weights, where the
    win counts most, stay exactly as they were."""
    from polis.core.result import GameResult

    def rewards(game: str, scores: tuple[int, ...]) -> tuple[float, ...]:
        places = tuple((p,) for p in sorted(range(len(scores)), key=lambda p: -scores[p]))
        return knowledge_for(get_game(game)).reward(GameResult(game, "classic", scores, places))

    for game in ("quadropolis", "metropolys"):
        second = rewards(game, (40, 32, 24, 16))[1]
        first, _, _, last = rewards(game, (32, 24, 16, 8))
        assert second > 0.25 * first + 0.75 * last
    # A margin of one score_scale (8 points in Quadropolis, 6 in Metropolys): tanh(1).
    for game, scores in (("quadropolis", (32, 24)), ("metropolys", (30, 24))):
        winner, loser = rewards(game, scores)
        assert winner == pytest.approx(0.8 + 0.2 * (0.5 + 0.5 * math.tanh(1.0)))
        assert loser == pytest.approx(0.2 * (0.5 + 0.5 * math.tanh(-1.0)))
