"""Rated games and ratings: what makes a table rated, and what a finished game writes for the
accounts that played it.

**Rated tables** are between accounts only: the creator's seat and seats left open for
signed-in people (or a challenged account's); no bots, no hot-seat, no chosen seed, no hints,
no take-backs. A seat whose person left, timed out or was away past the limit has a bot finish
the game for the others, and ranks last.

**Ratings** are openskill's Plackett-Luce model (the arena's too): it rates 2 to 4 players in
one game from their ranking, ties included. One rating per game and mode. The number shown is
``1500 + 40 * (mu - 3 * sigma)``, the conservative estimate scaled so that a new account starts
at 1500; a rating is provisional for its first :data:`PROVISIONAL_GAMES` games.

**Settling** a finished game (results for every bound seat, rated or not; ratings for rated
games) happens once, in the process that claims it first
(:func:`polis.server.store.standings.claim_settlement`), in one transaction: the process that
stored the last move settles at once (:meth:`polis.server.live.room.Room.commit`), and any
process's upkeep settles a finished game that process left unsettled when it stopped
(:func:`polis.server.live.upkeep.settle_missed`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from polis.core.result import GameResult
from polis.server.store import standings
from polis.server.store.games import SeatInfo, Store

if TYPE_CHECKING:
    from polis.server.live.room import Room

PROVISIONAL_GAMES = 5
START = 1500
SCALE = 40


def shown(mu: float, sigma: float) -> int:
    """The rating people see."""
    return round(START + SCALE * (mu - 3 * sigma))


def rated_refusal(
    kinds: Sequence[str], signed_in: bool, hot_seat: bool, seed: object, hints: bool | None
) -> str | None:
    """Why a table with seats of ``kinds`` ("human" is the creator's, "open" for others)
    cannot be rated (None: it can)."""
    if not signed_in:
        return "a rated game is between accounts: sign in first"
    if "bot" in kinds:
        return "a rated game is between accounts: no bot seats"
    if hot_seat:
        return "a rated game cannot be played hot-seat"
    if seed is not None:
        return "a rated game is dealt by the server: no chosen seed"
    if hints:
        return "a rated game has no hints"
    if sum(k == "human" for k in kinds) != 1:
        return (
            "a rated game has the creator's seat and seats left open for signed-in players "
            "(or challenge a player by name)"
        )
    return None


def forfeited(seats: Sequence[SeatInfo]) -> set[int]:
    """The people's seats a bot plays at the end: in a rated game a stand-in is never handed
    back (:meth:`polis.server.table.standins.SeatWatch.gone_for_good`), so these are the
    seats whose person left, timed out or was away past the limit."""
    return {s.seat for s in seats if s.kind == "human" and s.stand_in is not None}


def places(result: GameResult, out: set[int]) -> list[int]:
    """Each seat's place (1 = best; ties share the better place); the seats in ``out``
    (they left a rated game) come last, whatever their score."""
    groups = [[p for p in group if p not in out] for group in result.ranking]
    groups = [g for g in groups if g]
    if out:
        groups.append(sorted(out))
    rank = [0] * len(result.scores)
    place = 1
    for group in groups:
        for p in group:
            rank[p] = place
        place += len(group)
    return rank


def settle(store: Store, room: Room) -> bool:
    """Write a finished game's results (and, if rated, ratings) for its accounts; False when
    there was nothing to do (no account, or another process settled it). Runs in the
    store's writing thread.

    Every bound seat of a live account gets its :class:`~polis.server.store.standings.ResultRow`
    (rated or not: profiles count both), unless the account held several seats (a hot-seat
    game against itself says nothing of its play); a rated game, whose seats are all bound to
    distinct accounts, moves their ratings too. A deleted account's seat is rated as it played
    (its opponents' ratings move as the game went) but nothing is written for it."""
    seats = room.stored.seats
    bound = {s.seat: s.account_id for s in seats if s.account_id is not None}
    if not bound or not room.finished:
        return False
    result = room.state.result()
    out = forfeited(seats)
    stored = room.stored
    rated = stored.rated
    rank = places(result, out if rated else set())
    with store.engine.begin() as conn:
        if not standings.claim_settlement(conn, stored.id):
            return False
        live = standings.live_accounts(conn, sorted(set(bound.values())))
        held = Counter(bound.values())
        standings.add_results(
            conn,
            stored.id,
            stored.game,
            stored.mode,
            stored.players,
            rated,
            [
                standings.Placed(
                    seat,
                    account,
                    rank[seat],
                    result.scores[seat],
                    seat in out,
                    tied=rank.count(rank[seat]),
                )
                for seat, account in sorted(bound.items())
                if account in live and held[account] == 1
            ],
        )
        if rated and len(set(bound.values())) == len(seats):
            _rate(conn, stored.id, stored.game, stored.mode, bound, rank, live)
    return True


def _rate(
    conn: Any,
    game_id: str,
    game: str,
    mode: str,
    bound: dict[int, int],
    rank: list[int],
    live: set[int],
) -> None:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    order = sorted(bound)
    ids = [bound[s] for s in order]
    known = standings.ratings_of(conn, ids, game, mode)
    teams = [
        [model.rating(mu=known[a][0], sigma=known[a][1]) if a in known else model.rating()]
        for a in ids
    ]
    new = model.rate(teams, ranks=[float(rank[s]) for s in order])
    for account, team in zip(ids, new, strict=True):
        if account not in live:
            continue
        games = known[account][2] + 1 if account in known else 1
        standings.save_rating(conn, account, game, mode, game_id, team[0].mu, team[0].sigma, games)
