"""Public pages about accounts: a player's profile and the leaderboards.

Everything here is public by design, and so holds only what anyone watching the games could
learn: the account's name, whether it is a bot, when it was made, its ratings (per game and
mode, with their history for a chart), what it did in its finished games (played, win share,
mean place, best and mean final score) and its last games with their ids (the client links
each to its replay ``#/replay/{id}`` and review). No chat, session, seat token, block, mute
or report is read. Deleted and suspended accounts have no profile and are on no leaderboard.

The numbers come from :mod:`polis.server.store.standings` (written when a game is settled,
:func:`polis.server.accounts.ratings.settle`); the rating shown is
:func:`~polis.server.accounts.ratings.shown`, provisional for an account's first
:data:`~polis.server.accounts.ratings.PROVISIONAL_GAMES` rated games of a game and mode. The
functions are synchronous (the store's threads run them).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.engine import Engine

from polis.server.accounts.ratings import PROVISIONAL_GAMES, shown
from polis.server.store import standings

#: Finished games a profile lists.
RECENT = 20
#: Points of the rating history a profile carries (the latest, oldest first).
HISTORY = 500
#: Places a leaderboard lists.
BOARD = 100


def when(at: datetime) -> str:
    """ISO 8601 in UTC (a store without time zones, SQLite, gives its UTC times naive)."""
    text = at.isoformat()
    return text if at.tzinfo is not None else text + "+00:00"


def number(value: float) -> float | int:
    """A score as the game gave it: a whole number stays whole."""
    return int(value) if float(value).is_integer() else round(value, 2)


def rating_json(row: dict[str, Any]) -> dict[str, Any]:
    """One rating (a row of :data:`polis.server.store.standings.RATINGS`) as pages show it."""
    return {
        "game": row["game"],
        "mode": row["mode"],
        "rating": shown(row["mu"], row["sigma"]),
        "mu": round(row["mu"], 3),
        "sigma": round(row["sigma"], 3),
        "games": row["games"],
        "provisional": row["games"] < PROVISIONAL_GAMES,
    }


def profile(engine: Engine, name: str) -> dict[str, Any] | None:
    """The public profile of the account called ``name`` (any case); None: there is no such
    live account."""
    found = standings.player(engine, name)
    if found is None:
        return None
    account_id = found["id"]
    stats = [
        {
            "game": row["game"],
            "mode": row["mode"],
            "played": row["played"],
            "win_share": round(float(row["wins"] or 0) / row["played"], 4),
            "mean_rank": round(float(row["mean_rank"]), 3),
            "best_score": number(row["best_score"]),
            "mean_score": round(float(row["mean_score"]), 2),
        }
        for row in standings.stats(engine, account_id)
    ]
    recent = [
        {
            "id": row["game_id"],
            "game": row["game"],
            "mode": row["mode"],
            "players": row["players"],
            "seat": row["seat"],
            "seats": row["seats"],
            "rank": row["rank"],
            "score": number(row["score"]),
            "rated": bool(row["rated"]),
            "forfeited": bool(row["forfeited"]),
            "finished": when(row["finished"]),
        }
        for row in standings.recent(engine, account_id, RECENT)
    ]
    history = [
        {
            "game": row["game"],
            "mode": row["mode"],
            "game_id": row["game_id"],
            "rating": shown(row["mu"], row["sigma"]),
            "at": when(row["at"]),
        }
        for row in standings.history(engine, account_id, HISTORY)
    ]
    return {
        "name": found["name"],
        "bot": bool(found["bot"]),
        "created": when(found["created"]),
        "ratings": [rating_json(r) for r in standings.ratings(engine, account_id)],
        "stats": stats,
        "recent": recent,
        "history": history,
    }


def leaderboard(
    engine: Engine, game: str, mode: str, bots: bool = True, limit: int = BOARD
) -> dict[str, Any]:
    """The best ``limit`` rated accounts of ``game`` and ``mode`` by the rating shown (equal
    ratings share a place); ``bots`` False leaves bot accounts out."""
    players: list[dict[str, Any]] = []
    for row in standings.board(engine, game, mode, limit, bots):
        rating = shown(row["mu"], row["sigma"])
        same = players and players[-1]["rating"] == rating
        players.append(
            {
                "rank": players[-1]["rank"] if same else len(players) + 1,
                "name": row["name"],
                "bot": bool(row["bot"]),
                "rating": rating,
                "games": row["games"],
                "provisional": row["games"] < PROVISIONAL_GAMES,
            }
        )
    return {"game": game, "mode": mode, "players": players}
