"""Challenges: one account asks another, by name, to a table of a game and mode the server
serves, rated or not, with the clock and rules for leavers a new table may choose.

A challenge stays "open" until the challenged accepts or declines it or the challenger
withdraws it; a block between the two (either way), a suspension or a deletion closes it.
Nobody may challenge themselves, an unknown, deleted or suspended name (404, as if it had no
account), or someone they block or who blocks them (403, the same words both ways: the
refusal never says who blocked whom). An account has at most :data:`MAX_OPEN` challenges
waiting at once (429). Bot accounts may be challenged: they answer through the bot API.

**Accepting** makes the table as ``POST /api/games`` does (:meth:`~polis.server.live.hub.Hub.
create`): the challenger at seat 0 and the challenged at seat 1, both bound to their
accounts, any other seat left open (signed-in people only at a rated table; nobody either of
the two blocks, :meth:`~polis.server.accounts.service.Accounts.check_welcome`). The accepter
gets its seat's token; the challenger opens its seat from "My games"
(``POST /api/account/games/{id}/key``). The table is listed in the lobby when it is rated (a
rated game is public, like its result on the profiles) or has open seats (they wait for
takers); an unrated game of two is invite-only. Hints are off (two people play), take-backs
follow the table's rules (none at a rated table). Accepting is one conditional UPDATE first,
so that two answers at once make one table; when making the table fails, the challenge is
open again.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from polis.core.errors import PolisError
from polis.server.accounts.ratings import rated_refusal
from polis.server.errors import ServerError
from polis.server.http.routes.standins import TableRulesIn
from polis.server.store import accounts as rows
from polis.server.store.accounts import Account

if TYPE_CHECKING:
    from polis.server.live.hub import Hub
    from polis.server.live.room import Room

#: Challenges one account may have waiting for an answer at once.
MAX_OPEN = 20
#: Answered challenges listed besides the open ones, each way.
ANSWERED_SHOWN = 20
#: Whom a refusal for a block names: nobody (the same words whoever blocked whom).
BLOCKED = "you cannot challenge this player"
#: The rules of a table a challenge keeps (``TableRulesIn``'s fields).
RULES = ("clock", "stand_in", "away_limit")


def new_challenge_id() -> str:
    return secrets.token_urlsafe(12)


def to_json(found: dict[str, Any]) -> dict[str, Any]:
    """A challenge as its two accounts see it."""
    options = found["options"]
    created = found["created"]
    return {
        "id": found["id"],
        "from": found["from"],
        "to": found["to"],
        "game": found["game"],
        "mode": found["mode"],
        "players": found["players"],
        "rated": bool(options.get("rated")),
        "clock": options.get("clock"),
        "stand_in": options.get("stand_in"),
        "away_limit": options.get("away_limit"),
        "status": found["status"],
        "created": created.isoformat() if hasattr(created, "isoformat") else str(created),
        "game_id": found["game_id"],
    }


def rules_of(options: dict[str, Any]) -> TableRulesIn:
    """The table rules a challenge was made with."""
    return TableRulesIn.model_validate({k: options[k] for k in RULES if options.get(k) is not None})


async def challenge(
    hub: Hub,
    account: Account,
    to: str,
    game: str,
    mode: str,
    players: int,
    rated: bool,
    rules: TableRulesIn,
) -> dict[str, Any]:
    """Challenge the account called ``to``; the challenge made (ServerError otherwise)."""
    served = hub.game(game)
    try:
        mode, players = served.check_table(mode, players)
    except PolisError as exc:
        raise ServerError("bad_request", exc.message) from None
    rules.table()  # a level or a clock the table could not have is refused now, not at accept
    if rated:
        kinds = ["human", *["open"] * (players - 1)]
        refusal = rated_refusal(kinds, True, False, None, None)
        if refusal:
            raise ServerError("bad_request", refusal)
    engine = hub.store.engine
    found = await hub.patiently(lambda: rows.by_name(engine, to), "an account")
    if found is None or found[0].suspended:
        raise ServerError("not_found", f"no player is called {to!r}")
    target = found[0]
    if target.id == account.id:
        raise ServerError("bad_request", "you cannot challenge yourself")
    if await hub.patiently(lambda: rows.blocks(engine, account.id, [target.id]), "blocks"):
        raise ServerError("forbidden", BLOCKED)
    waiting = await hub.patiently(lambda: rows.open_challenges_from(engine, account.id), "counts")
    if waiting >= MAX_OPEN:
        raise ServerError(
            "rate_limited",
            f"you have {MAX_OPEN} challenges waiting for an answer: withdraw one first",
        )
    options: dict[str, Any] = {"rated": rated} | rules.model_dump(include=set(RULES))
    if rules.clock is not None:
        options["clock"] = rules.clock.model_dump(exclude_none=True)
    options = {k: v for k, v in options.items() if v is not None}
    challenge_id = new_challenge_id()
    await hub.write(
        lambda: rows.add_challenge(
            engine, challenge_id, account.id, target.id, game, mode, players, options
        ),
        "a challenge",
    )
    made = await hub.patiently(lambda: rows.challenge(engine, challenge_id), "a challenge")
    assert made is not None
    return to_json(made)


async def listing(hub: Hub, account: Account, waiting_only: bool = False) -> dict[str, Any]:
    """The account's challenges, ``incoming`` and ``outgoing``, newest first: the open ones
    and (unless ``waiting_only``) the last answered ones."""
    engine = hub.store.engine
    answered = 0 if waiting_only else ANSWERED_SHOWN
    found = await hub.patiently(
        lambda: rows.challenges_of(engine, account.id, answered), "challenges"
    )
    return {
        key: [to_json(c) for c in found[key] if not waiting_only or c["status"] == "open"]
        for key in ("incoming", "outgoing")
    }


async def _theirs(hub: Hub, account: Account, challenge_id: str, side: str) -> dict[str, Any]:
    """The challenge ``challenge_id`` if ``account`` is its ``side`` ("from" or "to"), still
    open; 404 for anyone else's (a challenge is private to its two accounts)."""
    engine = hub.store.engine
    found: dict[str, Any] | None = await hub.patiently(
        lambda: rows.challenge(engine, challenge_id), "a challenge"
    )
    if found is None or found[f"{side}_id"] != account.id:
        raise ServerError("not_found", "you have no such challenge")
    if found["status"] != "open":
        raise ServerError("bad_request", f"this challenge is {found['status']} already")
    return found


async def _close(hub: Hub, account: Account, challenge_id: str, side: str, status: str) -> Any:
    engine = hub.store.engine
    await _theirs(hub, account, challenge_id, side)
    mine = account.id
    done = await hub.write(
        lambda: rows.answer_challenge(
            engine,
            challenge_id,
            status,
            mine if side == "from" else None,
            mine if side == "to" else None,
        ),
        "answering a challenge",
    )
    found = await hub.patiently(lambda: rows.challenge(engine, challenge_id), "a challenge")
    assert found is not None
    if not done:  # answered by the other side (or another of this account's pages) meanwhile
        raise ServerError("bad_request", f"this challenge is {found['status']} already")
    return to_json(found)


async def decline(hub: Hub, account: Account, challenge_id: str) -> dict[str, Any]:
    """The challenged says no."""
    found: dict[str, Any] = await _close(hub, account, challenge_id, "to", "declined")
    return found


async def withdraw(hub: Hub, account: Account, challenge_id: str) -> dict[str, Any]:
    """The challenger takes the challenge back."""
    found: dict[str, Any] = await _close(hub, account, challenge_id, "from", "withdrawn")
    return found


async def accept(hub: Hub, account: Account, challenge_id: str) -> tuple[Room, int, str]:
    """The challenged says yes: the table made, the accepter's seat and its token."""
    engine = hub.store.engine
    found = await _theirs(hub, account, challenge_id, "to")
    sender = await hub.patiently(lambda: rows.by_id(engine, found["from_id"]), "an account")
    if sender is None or sender.deleted or sender.suspended:
        await hub.write(
            lambda: rows.answer_challenge(engine, challenge_id, "withdrawn", None, account.id),
            "closing a challenge",
        )
        raise ServerError("not_found", "the player who challenged you has no account any more")
    if await hub.patiently(lambda: rows.blocks(engine, account.id, [sender.id]), "blocks"):
        raise ServerError("forbidden", "you cannot play with this player")
    options = found["options"]
    table = rules_of(options).table()
    won = await hub.write(
        lambda: rows.answer_challenge(engine, challenge_id, "accepted", None, account.id),
        "accepting a challenge",
    )
    if not won:
        raise ServerError("bad_request", "this challenge was answered already")
    rated = bool(options.get("rated"))
    players = int(found["players"])
    seats: list[dict[str, Any]] = [
        {"name": sender.name, "kind": "human", "account_id": sender.id, "account": sender.name},
        {"name": account.name, "kind": "human", "account_id": account.id, "account": account.name},
    ] + [{"name": "", "kind": "human", "vacant": True} for _ in range(players - 2)]
    try:
        room, tokens = await hub.create(
            found["game"],
            found["mode"],
            seats,
            listed=rated or players > 2,
            table=table,
            hints=False,
            rated=rated,
            creator_id=sender.id,
        )
    except BaseException:
        await hub.write(
            lambda: rows.settle_challenge(engine, challenge_id, None), "reopening a challenge"
        )
        raise
    await hub.write(
        lambda: rows.settle_challenge(engine, challenge_id, room.id), "a challenge's table"
    )
    return room, 1, tokens[1]
