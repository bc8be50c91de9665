"""The HTTP API: what games there are, creating games, summaries, records, replays, rematches.

Everything about a game comes from its :class:`~polis.core.protocol.Game` object (modes,
table sizes, client data); nothing here knows one game from another.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import Field, field_validator

from polis.bots import LEVELS
from polis.server.accounts.ratings import rated_refusal
from polis.server.errors import ServerError
from polis.server.http.deps import ClientsDep, HubDep, MaybeSignedIn, RoomDep
from polis.server.http.inputs import Body, check_name, check_text, is_token
from polis.server.http.middleware import public_base
from polis.server.http.routes.standins import TableRulesIn
from polis.server.http.webfiles import LANGUAGES
from polis.server.live.history import line_of, replay, taken_back
from polis.server.live.room import Room
from polis.server.store.api_tokens import allow_bots, bots_allowed
from polis.server.table.deals import chosen_seed_refusal
from polis.server.table.hints import default_hints
from polis.server.table.standins import standing_authors
from polis.server.wire.from_client import MAX_TOKEN

router = APIRouter(prefix="/api")


class SeatIn(Body):
    #: Empty: "player N" (an open seat's name is its taker's).
    name: str = Field(default="", max_length=40)
    #: "open": a person's seat left for anyone to take (:mod:`polis.server.table.open_tables`).
    kind: Literal["human", "bot", "open"]
    level: str | None = Field(default=None, max_length=16)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return value if value == "" else check_name(value)

    @field_validator("level")
    @classmethod
    def _level(cls, value: str | None) -> str | None:
        return None if value is None else check_text(value, "the level")


class NewGame(TableRulesIn):  # with the clock and rules for leavers it may choose
    game: str = Field(max_length=32)
    mode: str = Field(max_length=16)
    seats: list[SeatIn] = Field(min_length=1, max_length=8)
    #: A chosen seed (a number or a short text): only where nobody else's secrets are at stake
    #: (:mod:`polis.server.table.deals`); otherwise the server deals from a secret seed.
    seed: int | str | None = Field(default=None)
    #: One person holds every seat (hot-seat): a chosen seed is then allowed.
    hot_seat: bool = False
    #: The lobby lists the table (its open seats, then the game to watch); False: invite-only.
    #: None: listed, unless the seed is chosen (such a table is never listed).
    listed: bool | None = None
    #: Spectators may read the table's chat (its players always may; spectators never write).
    chat_spectators: bool = False
    #: The seat to move may ask for a suggested move; None: on where no other person sits
    #: (one person against bots, hot-seat), off otherwise; on is refused where another
    #: person sits or may sit (:mod:`polis.server.table.hints`).
    hints: bool | None = None
    #: A rated game (:mod:`polis.server.accounts.ratings`): the creator signed in, every other
    #: seat open for signed-in people; no bots, hot-seat, chosen seed, hints or take-backs.
    rated: bool = False
    #: Bot accounts may take the open seats (through the bot API, :mod:`polis.server.http
    #: .routes.bots`), as well as people; a rated table too.
    bots: bool = False

    @field_validator("game", "mode")
    @classmethod
    def _clean(cls, value: str) -> str:
        return check_text(value, "this text")

    @field_validator("seed", mode="before")
    @classmethod
    def _seed(cls, value: object) -> object:
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | str)):
            raise ValueError("the seed must be a whole number or a text")
        if isinstance(value, int) and not 0 <= value < 2**63:
            raise ValueError("a numeric seed must be between 0 and 2**63 - 1")
        if isinstance(value, str):
            if not 0 < len(value) <= 64:
                raise ValueError("a text seed must have 1 to 64 characters")
            check_text(value, "the seed")
        return value


class TokensIn(Body):
    tokens: list[str] = Field(min_length=1, max_length=8)

    @field_validator("tokens")
    @classmethod
    def _tokens(cls, value: list[str]) -> list[str]:
        for token in value:
            if len(token) > MAX_TOKEN or not is_token(token):
                raise ValueError("tokens are seat tokens (letters, digits, - and _)")
        return value


@router.get("/meta")
async def meta(hub: HubDep, clients: ClientsDep) -> dict[str, Any]:
    """The games served (with where their browser client is), bot levels and languages."""
    games = {
        name: {
            "title": game.title,
            "modes": list(game.modes),
            "min_players": game.min_players,
            "max_players": game.max_players,
            "client": clients[name].meta() if name in clients else None,
        }
        for name, game in hub.games.items()
    }
    return {
        "games": games,
        "levels": list(LEVELS),
        "languages": list(LANGUAGES),
        # optional accounts, ratings, profiles, challenges (:mod:`polis.server.accounts`)
        "accounts": True,
        # bot accounts and their API (:mod:`polis.server.http.routes.bots`)
        "bot_api": True,
        # events: Swiss and round-robin tournaments (:mod:`polis.server.events`)
        "tournaments": True,
    }


@router.get("/boards/{name}")
async def board(name: str, hub: HubDep) -> Response:
    """Public component data the game's client draws from (``game.client_data()``)."""
    game = hub.games.get(name)
    if game is None:
        raise ServerError("not_found", f"no board for {name!r}")
    return Response(
        json.dumps(game.client_data()),
        media_type="application/json",
        headers={"Cache-Control": "max-age=3600"},
    )


@router.get("/games")
async def recent(hub: HubDep) -> dict[str, Any]:
    return {"games": await hub.patiently(lambda: hub.store.recent(30), "listing games")}


@router.post("/games")
async def create(
    body: NewGame, request: Request, hub: HubDep, signed: MaybeSignedIn
) -> dict[str, Any]:
    hub.guards.create(request.client.host if request.client else "unknown")
    if signed is not None and signed.account.bot:
        raise ServerError(
            "forbidden",
            "a bot account plays through the bot API: accept a challenge or take an open seat",
        )
    game = hub.game(body.game)
    game.check_table(body.mode, len(body.seats))  # InputError names the rule
    for seat in body.seats:
        if seat.kind == "bot" and seat.level is not None and seat.level not in LEVELS:
            raise ServerError("bad_request", f"unknown bot level {seat.level!r}")
    kinds = [s.kind for s in body.seats]
    if body.bots and "open" not in kinds:
        raise ServerError("bad_request", "bots may take open seats: this table leaves none open")
    if body.seed is not None:
        refusal = chosen_seed_refusal(kinds, body.hot_seat, body.listed is True)
        if refusal:
            raise ServerError("bad_request", refusal)
    if body.rated:
        refusal = rated_refusal(kinds, signed is not None, body.hot_seat, body.seed, body.hints)
        if refusal:
            raise ServerError("bad_request", refusal)
    alone = default_hints(kinds, body.hot_seat) and not body.rated
    if body.hints and not alone:
        raise ServerError(
            "bad_request",
            "hints are allowed only where no other person sits (one person against bots, or "
            "hot-seat): a suggested move would spoil another person's game",
        )
    seats: list[dict[str, Any]] = [
        {
            "name": "" if s.kind == "open" else s.name.strip() or f"player {i + 1}",
            "kind": "human" if s.kind == "open" else s.kind,
            "level": (s.level or "medium") if s.kind == "bot" else None,
            "vacant": s.kind == "open",
        }
        for i, s in enumerate(body.seats)
    ]
    if signed is not None:  # the creator's seat (every person's seat, hot-seat) is theirs
        mine = [i for i, s in enumerate(body.seats) if s.kind == "human"]
        for i in mine if body.hot_seat else mine[:1]:
            seats[i] |= {"account_id": signed.account.id, "account": signed.account.name}
    room, tokens = await hub.create(
        body.game,
        body.mode,
        seats,
        seed=body.seed,
        chat_spectators=body.chat_spectators,
        listed=body.seed is None if body.listed is None else body.listed,
        table=body.table(),
        hints=alone if body.hints is None else body.hints,
        rated=body.rated,
        creator_id=None if signed is None else signed.account.id,
    )
    if body.bots:  # before the answer: nobody knows the table yet
        engine = hub.store.engine
        await hub.write(lambda: allow_bots(engine, room.id), "a table for bots")
    base = public_base(request.scope, hub.config.public_url)
    gid = room.id
    out: list[dict[str, Any]] = []
    for public in room.seats_public():
        entry: dict[str, Any] = dict(public)
        token = tokens.get(public["seat"])
        if token is not None:
            entry |= {"token": token, "invite": f"{base}/#/game/{gid}/{token}"}
        out.append(entry)
    return {"id": gid, "seats": out, "watch": f"{base}/#/game/{gid}"}


@router.get("/games/{game_id}")
async def summary(room: RoomDep, hub: HubDep) -> dict[str, Any]:
    stored = room.stored
    engine = hub.store.engine
    bots = await hub.patiently(lambda: bots_allowed(engine, [room.id]), "a table")
    return {
        "id": stored.id,
        "game": stored.game,
        "mode": stored.mode,
        "players": stored.players,
        "seats": room.seats_public(),
        "position": room.position,
        "finished": room.finished,
        # whose turn it is (-1 once over): the lobby's list of recent games says it
        "current_player": room.state.current_player(),
        "rematch_of": stored.rematch_of,
        "rematch_id": stored.rematch_id,
        "seed_chosen": stored.seed_chosen,
        "listed": stored.listed,
        "chat_spectators": stored.chat_spectators,
        "hints": room.hints.enabled,
        "rated": stored.rated,
        # bot accounts may take its open seats (``"bots"`` when it was made)
        "bots": bool(bots),
    }


def require_finished(room: Room) -> None:
    """Records and replays hold every secret: they wait for the end of the game."""
    if not room.finished:
        raise ServerError(
            "not_finished", "the record is available once the game is over (it holds secrets)"
        )


def finished_record(room: Room) -> dict[str, Any]:
    """The formats.md record of a finished game."""
    require_finished(room)
    names = [s.name if s.kind == "human" else f"bot:{s.level}" for s in room.stored.seats]
    record = room.state.to_record(names=names, seed=room.stored.seed)
    # whether the seed was chosen by the game's creator (who then knew the deal)
    record["seed_chosen"] = room.stored.seed_chosen
    authors = standing_authors(room.stored.moves, room.stored.authors)
    if any(authors):  # who made each move (formats.md: "authors")
        record["authors"] = list(authors)
    taken = taken_back(room.stored.moves)
    if taken:  # the moves taken back (formats.md: "taken_back"); "moves" is the final line
        record["taken_back"] = taken
    return record


@router.get("/games/{game_id}/record")
async def record(room: RoomDep) -> Response:
    data = finished_record(room)
    filename = f"{room.stored.game}-{room.id}.json"
    return Response(
        json.dumps(data, indent=2, ensure_ascii=False),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/games/{game_id}/replay/{position}")
async def replay_at(room: RoomDep, position: int) -> dict[str, Any]:
    """A finished game as it stood after ``position`` moves of its final line (take-backs
    applied): the public view and log."""
    require_finished(room)
    stored = room.stored
    line = [text for _index, text in line_of(stored.moves)]
    total = len(line)
    if not 0 <= position <= total:
        raise ServerError("bad_request", f"position must be between 0 and {total}")
    state, log = await asyncio.to_thread(
        replay,
        room.game,
        stored.mode,
        stored.players,
        seed=stored.seed,
        setup=stored.setup,
        options=stored.options,
        moves=line[:position],
    )
    out: dict[str, Any] = {
        "position": position,
        "total": total,
        "view": state.view(None).to_json(),
        "current_player": state.current_player(),
        "log": log.for_seat(None),
        # who made each move so far ("person", "bot:<level>", null: not recorded)
        "authors": (stored.authors + [None] * position)[:position],
    }
    if state.is_terminal():
        out["result"] = state.result().to_json()
    return out


@router.post("/games/{game_id}/rematch")
async def rematch(game_id: str, body: TokensIn, hub: HubDep) -> dict[str, Any]:
    new_id, tokens = await hub.rematch(game_id, body.tokens)
    return {"id": new_id, "tokens": {str(k): v for k, v in tokens.items()}}
