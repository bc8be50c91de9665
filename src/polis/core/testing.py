"""One conformance suite for every game: :func:`check_game`.

In the spirit of OpenSpiel's ``random_sim_test`` and PettingZoo's ``api_test``: seeded random
playouts of every mode and player count, checking the protocol's promises move by move:

* the player to move, the legal moves (unique, members of the action space, ``random_move``
  among them) and the terminal state behave;
* every move's id and notation lead back to the very same move object;
* an illegal move, or something that is no move at all, raises IllegalMove and changes
  nothing; a clone is independent of its original;
* ``play`` gives the same position as ``apply`` and JSON-able events for real seats;
* ``view(determinize(view)) == view`` for every seat and the spectator, and the sampled
  world (other hidden facts) gives the seat the same view and the same event log;
* records round-trip through JSON and replay to the same position and result;
* the result has one shape: categories that sum to each total, a ranking of every player.

A failure raises AssertionError saying what broke, where (mode, players, seed, move).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from polis.core.errors import IllegalMove, PolisError
from polis.core.events import Event, event_log
from polis.core.protocol import Game, GameState
from polis.core.view import TERMINAL, View


@dataclass
class Conformance:
    """What :func:`check_game` checked (so a test can assert it checked something)."""

    games: int = 0
    moves: int = 0
    illegal_tried: int = 0
    determinized: int = 0
    event_logs: int = 0
    records: int = 0
    configs: list[tuple[str, int]] = field(default_factory=list)


class _Where:
    """Names the position of a failure."""

    def __init__(self, game: Game, mode: str, players: int, seed: int) -> None:
        self.text = f"{game.name} {mode} {players}p seed {seed}"
        self.move = 0

    def __str__(self) -> str:
        return f"{self.text}, move {self.move}"


def _check(condition: bool, where: _Where, what: str) -> None:
    if not condition:
        raise AssertionError(f"{where}: {what}")


def _views(state: GameState) -> list[View]:
    return [state.view(p) for p in (None, *range(state.num_players))]


def _check_position(game: Game, state: GameState, where: _Where, rng: random.Random) -> None:
    n = state.num_players
    space = game.action_space(state.mode)
    cur = state.current_player()
    legal = state.legal_moves()
    if cur == TERMINAL:
        _check(state.is_terminal() and len(legal) == 0, where, "a finished game has legal moves")
        try:
            state.random_move(rng)
        except IllegalMove:
            pass
        else:
            raise AssertionError(f"{where}: random_move after the end did not raise IllegalMove")
        return
    _check(0 <= cur < n and not state.is_terminal(), where, f"current player {cur} out of range")
    _check(len(legal) > 0, where, "no legal move in a game that is not over")
    ids = legal.ids()
    _check(len(set(ids)) == len(ids), where, "a legal move is listed twice")
    for move in legal:
        _check(space[move.id] is move, where, f"{move!r} is not its action space's move")
        _check(space.parse(str(move)) is move, where, f"notation {move} parses to another move")
        _check(move in legal, where, "membership test fails for a listed move")
    _check(state.random_move(rng) in legal, where, "random_move gave a move that is not legal")
    view = state.view(cur)
    _check(view.player == cur and view.current_player == cur, where, "the view's seat is wrong")
    _check(tuple(view.moves) == tuple(state.history), where, "the view's moves are not the history")
    json.dumps(view.to_json())


def _check_illegal(state: GameState, where: _Where, rng: random.Random, space_size: int) -> int:
    """Moves that are not legal here raise IllegalMove and change nothing; returns how many."""
    before = _views(state)
    history = len(state.history)
    space = state.game.action_space(state.mode)
    legal = set(state.legal_moves())
    tried = 0
    candidates: list[Any] = [None, "1", object(), -1]
    candidates += [space[rng.randrange(space_size)] for _ in range(6)]
    for move in candidates:
        if move in legal:
            continue
        try:
            state.apply(move)
        except IllegalMove:
            tried += 1
        else:
            raise AssertionError(f"{where}: the illegal move {move!r} was accepted")
        _check(_views(state) == before, where, f"the refused move {move!r} changed the state")
        _check(len(state.history) == history, where, f"the refused move {move!r} was recorded")
    return tried


def _check_events(events: Sequence[Event], n: int, where: _Where) -> None:
    for event in events:
        _check(isinstance(event, Event) and bool(event.key), where, f"not an event: {event!r}")
        if event.to is not None:
            _check(all(0 <= p < n for p in event.to), where, f"{event.key}: bad seats {event.to}")
        json.dumps(event.to_json())


def _check_hidden(
    game: Game, state: GameState, where: _Where, rng: random.Random, log: bool
) -> int:
    """Determinized worlds look the same to the seat: view, and (``log``) its event log."""
    done = 0
    for seat in (None, *range(state.num_players)):
        view = state.view(seat)
        world = game.determinize(view, rng)
        again = world.view(seat)
        _check(again == view, where, f"view(determinize(view)) differs for seat {seat}")
        _check(
            json.dumps(again.to_json(), sort_keys=True)
            == json.dumps(view.to_json(), sort_keys=True),
            where,
            f"the JSON of seat {seat}'s view depends on hidden facts",
        )
        if log:
            mine = [e.to_json() for e in event_log(state, seat)]
            theirs = [e.to_json() for e in event_log(world, seat)]
            _check(mine == theirs, where, f"seat {seat}'s events depend on facts it cannot see")
        done += 1
    return done


def _check_record(game: Game, state: GameState, where: _Where) -> None:
    names = [f"seat {i}" for i in range(state.num_players)]
    record = json.loads(json.dumps(state.to_record(names=names, seed=None)))
    again = game.from_record(record)
    _check(_views(again) == _views(state), where, "the replayed record is another position")
    _check(list(again.history) == list(state.history), where, "the replayed history differs")
    if state.is_terminal():
        _check(again.result() == state.result(), where, "the replayed result differs")
        _check(record["result"] == state.result().to_json(), where, "the record's result differs")


def _check_result(game: Game, state: GameState, mode: str, where: _Where) -> None:
    result = state.result()
    n = state.num_players
    _check(result.game == game.name and result.mode == mode, where, "result names another game")
    _check(len(result.scores) == n and len(result.players) == n, where, "result per player")
    seen = sorted(p for place in result.ranking for p in place)
    _check(seen == list(range(n)), where, f"ranking {result.ranking} is not every player once")
    for p, score in enumerate(result.players):
        _check(score.total == result.scores[p], where, f"player {p}'s total is not their score")
        _check(sum(score.categories.values()) == score.total, where, "categories do not add up")
        if game.categories:
            _check(list(score.categories) == list(game.categories), where, "categories differ")
        _check(set(score.tie_breaks) <= set(game.tie_breaks), where, "unknown tie-break")
    _check(abs(sum(result.win_shares()) - 1.0) < 1e-9, where, "win shares do not sum to 1")
    json.dumps(result.to_json())


def check_game(
    game: Game,
    *,
    configs: Iterable[tuple[str, int]] | None = None,
    games: int = 1,
    seed: int = 0,
    every: int = 7,
) -> Conformance:
    """Run the conformance suite on ``game`` (see the module docstring); returns counts.

    ``configs`` are (mode, players) pairs (default: every mode with every player count);
    ``games`` random games are played for each; the expensive checks (illegal moves,
    determinization, records) run every ``every`` moves and at the end.
    """
    report = Conformance()
    if configs is None:
        configs = [
            (mode, n) for mode in game.modes for n in range(game.min_players, game.max_players + 1)
        ]
    for mode, players in configs:
        report.configs.append((mode, players))
        space = game.action_space(mode)
        for action, move in enumerate(space):
            if move.id != action or space.parse(str(move)) is not move:
                raise AssertionError(f"{game.name} {mode}: action {action} does not round-trip")
        for g in range(games):
            game_seed = seed * 1009 + g
            where = _Where(game, mode, players, game_seed)
            rng = random.Random(game_seed)
            state = game.new_game(mode, players, seed=game_seed)
            try:
                game.new_game(mode, players, seed=game_seed, options={"no such option": 1})
            except PolisError:
                pass
            else:
                raise AssertionError(f"{where}: an unknown rules option was accepted")
            _check_events(state.opening_events(), players, where)
            step = 0
            while True:
                where.move = step
                _check_position(game, state, where, rng)
                sampled = step % every == 0 or state.is_terminal()
                if sampled:
                    report.illegal_tried += _check_illegal(state, where, rng, len(space))
                    log = step % (every * 4) == 0 or state.is_terminal()
                    report.determinized += _check_hidden(game, state, where, rng, log)
                    report.event_logs += log
                    if log and not state.is_terminal():
                        _check_record(game, state, where)
                if state.is_terminal():
                    break
                move = state.random_move(rng)
                twin = state.clone()
                before = state.view(None)
                twin.apply(move)
                _check(
                    state.view(None) == before, where, "applying to a clone changed the original"
                )
                events = state.play(move)
                _check_events(events, players, where)
                _check(state.view(None) == twin.view(None), where, "play and apply disagree")
                step += 1
                report.moves += 1
            _check_result(game, state, mode, where)
            _check_record(game, state, where)
            report.records += 1
            report.games += 1
    return report


__all__ = ["Conformance", "check_game"]
