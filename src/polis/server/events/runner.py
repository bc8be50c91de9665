"""Events run by themselves: created, joined and left through the routes, then started (by
their creator, or at their start time), paired round after round, their tables made, their
results written and their standings kept, in every server process at once.

**Once, wherever.** Each process's loop (:func:`run`, started by the upkeep) looks at the
open and running events every :data:`TICK` seconds. Each step that must happen once is a
conditional write in the store (:mod:`polis.server.store.events`): the start and each round's
advance move the event's ``round`` and write the next pairings in one transaction, so two
processes pairing the same round at once make one round (the loser's pairing is dropped);
a table's result is written with its ``recorded`` flag; a table's game is made under a lease.
Pairing is a pure function of what is stored (:mod:`polis.server.events.pairing`), so
whichever process wins pairs as any other would have.

**Tables** are made as ``POST /api/games`` makes them (:meth:`~polis.server.live.hub.Hub.
create`): every seat bound to its entrant's account, so a person finds the table in "My
games" (and is notified when it is their turn, if they subscribed) and a bot account gets
``game_start`` on its event stream; listed (anyone may watch); no hints; rated when the event
is (the normal settlement then rates it: :mod:`polis.server.accounts.ratings`). The tables'
rules are the event's; a table without a clock gets an away limit of :data:`NO_SHOW` seconds
unless the event chose one, so that nobody stalls a round.

**No-shows.** An entrant who does not come is replaced by a bot (the clock or the away
limit, :mod:`polis.server.table.standins`); a seat whose first move at the table was made by
such a bot is a *no-show*: it is placed last there, whatever the bot scored, and the entrant
is paired no more. An entrant who leaves (``/leave``) finishes nothing: they are paired no
more, and their current table plays on (a bot stands in if they go).

**Rounds** follow when every table of the round is recorded. Swiss events play the number of
rounds their creator chose; a round robin as many as its schedule needs. An event whose
entrants all left but one ends early. Each round is paired with the blocks between its
entrants as they stand then (:mod:`polis.server.events.pairing` keeps a blocked pair apart
while any pairing does), so a block made during the event counts from the next round on.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from polis.core.errors import PolisError
from polis.core.protocol import Game, GameState
from polis.server.accounts.ratings import forfeited, places
from polis.server.errors import ServerError
from polis.server.events import pairing
from polis.server.events.standings import Entrant, Played, place_points, records, standings
from polis.server.http.routes.standins import TableRulesIn
from polis.server.live.history import line_of
from polis.server.store import accounts as account_rows
from polis.server.store import events as rows
from polis.server.store.accounts import Account
from polis.server.store.faults import transient
from polis.server.store.games import StoredGame
from polis.server.table.clocks import TableClock
from polis.server.table.standins import standing_authors
from polis.server.wire.events import (
    EntrantJSON,
    EventJSON,
    EventListJSON,
    EventRoundJSON,
    EventRulesJSON,
    EventSeatJSON,
    EventSummaryJSON,
    EventTableJSON,
    StandingJSON,
)

if TYPE_CHECKING:
    from polis.server.live.hub import Hub

log = logging.getLogger("polis.server")

FORMATS = ("swiss", "round_robin")
#: Most entrants an event takes.
MAX_ENTRANTS = 64
#: Most entrants of a round robin (its rounds grow with them).
MAX_ROUND_ROBIN = 16
#: Most rounds of a Swiss event.
MAX_ROUNDS = 20
#: Events one account may have waiting for their start at once.
MAX_OPEN = 10
#: Furthest ahead an event may be scheduled (seconds).
FURTHEST = 90 * 86400.0
#: Seconds a person may be away on their turn at an event table without a clock (when the
#: event chose no away limit): a no-show is replaced after this long.
NO_SHOW = 300.0
#: Seconds between two looks at the events (each process).
TICK = 1.0
#: Finished events listed.
FINISHED_SHOWN = 50
#: The rules of a table an event keeps (``TableRulesIn``'s fields).
RULES = ("clock", "stand_in", "away_limit")


def new_event_id() -> str:
    return secrets.token_urlsafe(12)


def allowed_sizes(hub: Hub, game: str, mode: str, players: int) -> set[int]:
    """The table sizes of up to ``players`` the mode allows."""
    served = hub.game(game)
    found = set()
    for size in range(2, players + 1):
        try:
            served.check_table(mode, size)
        except PolisError:
            continue
        found.add(size)
    return found


def rules_of(event: dict[str, Any]) -> TableRulesIn:
    return TableRulesIn.model_validate(
        {k: v for k, v in event["rules"].items() if k in RULES and v is not None}
    )


def table_rules(event: dict[str, Any]) -> TableClock:
    """The rules every table of the event gets: the event's, and an away limit of
    :data:`NO_SHOW` where there is no clock nor a chosen away limit."""
    chosen = rules_of(event).table() or TableClock()
    if chosen.time_control is None and chosen.away_limit is None:
        return TableClock(None, chosen.stand_in, NO_SHOW)
    return chosen


# -- making, joining, leaving --------------------------------------------------------------------
def checked(
    game: Game,
    mode: str,
    players: int,
    rules: TableRulesIn,
    format: str,
    rounds: int | None,
    starts: float | None,
    now: float,
) -> tuple[str, int]:
    """The mode and players per table of a new event of ``game``, or ServerError saying what
    it could not be (the routes' and ``polis admin event``'s one set of rules)."""
    try:
        mode, players = game.check_table(mode, players)
    except PolisError as exc:
        raise ServerError("bad_request", exc.message) from None
    rules.table()  # a level or a clock no table could have is refused now
    if format not in FORMATS:
        raise ServerError("bad_request", "an event is 'swiss' or 'round_robin'")
    if format == "swiss":
        if rounds is None or not 1 <= rounds <= MAX_ROUNDS:
            raise ServerError("bad_request", f"a Swiss event plays 1 to {MAX_ROUNDS} rounds")
    elif rounds is not None:
        raise ServerError(
            "bad_request", "a round robin plays as many rounds as its entrants need: give none"
        )
    if starts is not None and not now - 60 <= starts <= now + FURTHEST:
        raise ServerError("bad_request", "the start time is past, or more than 90 days ahead")
    return mode, players


def row_values(
    *,
    name: str,
    game: str,
    mode: str,
    players: int,
    rules: TableRulesIn,
    rated: bool,
    format: str,
    starts: float | None,
    rounds: int | None,
    creator_id: int | None,
) -> dict[str, Any]:
    """A new event's row (:func:`polis.server.store.events.add_event`), with a new id and a
    secret seed for its draws."""
    kept: dict[str, Any] = rules.model_dump(include=set(RULES))
    if rules.clock is not None:
        kept["clock"] = rules.clock.model_dump(exclude_none=True)
    return {
        "id": new_event_id(),
        "name": name,
        "game": game,
        "mode": mode,
        "players": players,
        "format": format,
        "rated": int(rated),
        "rules": _dumps({k: v for k, v in kept.items() if v is not None}),
        "rounds": rounds,
        "status": "open",
        "starts": starts,
        "creator_id": creator_id,
        "seed": str(secrets.randbits(63)),
    }


async def create(
    hub: Hub,
    creator: Account | None,
    *,
    name: str,
    game: str,
    mode: str,
    players: int,
    rules: TableRulesIn,
    rated: bool,
    format: str,
    starts: float | None,
    rounds: int | None,
) -> EventJSON:
    """A new event (ServerError for anything it could not be)."""
    mode, players = checked(hub.game(game), mode, players, rules, format, rounds, starts, hub.now())
    if creator is not None:
        if creator.bot:
            raise ServerError("forbidden", "a bot account enters events; a person makes them")
        engine = hub.store.engine
        waiting = await hub.patiently(lambda: rows.open_events_of(engine, creator.id), "events")
        if waiting >= MAX_OPEN:
            raise ServerError(
                "rate_limited", f"you have {MAX_OPEN} events waiting for their start already"
            )
    values = row_values(
        name=name,
        game=game,
        mode=mode,
        players=players,
        rules=rules,
        rated=rated,
        format=format,
        starts=starts,
        rounds=rounds,
        creator_id=None if creator is None else creator.id,
    )
    await hub.write(lambda: rows.add_event(hub.store.engine, **values), "an event")
    return await detail(hub, values["id"], creator)


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


async def _event(hub: Hub, event_id: str) -> dict[str, Any]:
    if len(event_id) > 24:
        raise ServerError("not_found", "no such event")
    engine = hub.store.engine
    found: dict[str, Any] | None = await hub.patiently(
        lambda: rows.event(engine, event_id), "an event"
    )
    if found is None:
        raise ServerError("not_found", "no such event")
    return found


async def join(hub: Hub, event_id: str, account: Account) -> None:
    """Enter ``account`` in the event (before it starts)."""
    event = await _event(hub, event_id)
    engine = hub.store.engine
    at = hub.now()
    refused = await hub.write(
        lambda: rows.join(engine, event_id, account.id, at, MAX_ENTRANTS), "joining an event"
    )
    if refused == "closed":
        raise ServerError("bad_request", "this event takes no more entrants: it has started")
    if refused == "full":
        raise ServerError("full", f"this event has {MAX_ENTRANTS} entrants already")
    if refused == "entered" or refused is not None:
        raise ServerError("bad_request", "you are entered already")
    if event["format"] == "round_robin":
        count = len(await hub.patiently(lambda: rows.entrants(engine, event_id), "entrants"))
        if count > MAX_ROUND_ROBIN:
            await hub.write(lambda: rows.leave(engine, event_id, account.id), "leaving")
            raise ServerError("full", f"a round robin takes at most {MAX_ROUND_ROBIN} entrants")


async def leave(hub: Hub, event_id: str, account: Account) -> str:
    """Take ``account`` out: "removed" before the start, "withdrawn" once running."""
    await _event(hub, event_id)
    engine = hub.store.engine
    done: str | None = await hub.write(
        lambda: rows.leave(engine, event_id, account.id), "leaving an event"
    )
    if done is None:
        raise ServerError("bad_request", "you are not playing in this event")
    return done


async def start(hub: Hub, event_id: str, account: Account) -> EventJSON:
    """The creator starts the event now."""
    event = await _event(hub, event_id)
    if event["creator_id"] != account.id:
        raise ServerError("forbidden", "only the event's creator may start it")
    if event["status"] != "open":
        raise ServerError("bad_request", "this event has started already")
    if not await begin(hub, event, by_hand=True):
        raise ServerError("bad_request", "this event has started already")
    return await detail(hub, event_id, account)


# -- the rounds --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Known:
    """An event's entrants and results as stored, read together."""

    entrants: list[Entrant]
    #: Entrants whose accounts were deleted or suspended (and are not out yet).
    gone: list[int]
    results: list[Played]
    #: Pairs of entrants of whom one blocks the other: kept apart by the pairing.
    blocks: set[frozenset[int]] = field(default_factory=set)


async def _known(hub: Hub, event_id: str) -> Known:
    engine = hub.store.engine

    def read() -> tuple[list[dict[str, Any]], list[dict[str, Any]], set[frozenset[int]]]:
        found = rows.entrants(engine, event_id)
        ids = [e["account_id"] for e in found]
        return found, rows.results(engine, event_id), account_rows.blocked_pairs(engine, ids)

    found, results, blocks = await hub.patiently(read, "an event's entrants")
    entrants = [
        Entrant(e["account_id"], e["name"], e["bot"], e["withdrawn"], e["why"]) for e in found
    ]
    gone = [e["account_id"] for e in found if not e["live"] and e["withdrawn"] is None]
    played = [
        Played(
            r["round"],
            r["account_id"],
            r["board"],
            r["seat"],
            r["place"],
            r["points"],
            r["score"],
            bool(r["no_show"]),
        )
        for r in results
    ]
    return Known(entrants, gone, played, blocks)


async def _ratings(hub: Hub, event: dict[str, Any], ids: list[int]) -> dict[int, float]:
    """Each entrant's rating in the event's game and mode (the first round's order)."""
    from polis.server.accounts.ratings import shown
    from polis.server.store import standings as standing_rows

    engine = hub.store.engine

    def read() -> dict[int, tuple[float, float, int]]:
        with engine.connect() as conn:
            return standing_rows.ratings_of(conn, ids, event["game"], event["mode"])

    found = await hub.patiently(read, "ratings")
    return {a: float(shown(mu, sigma)) for a, (mu, sigma, _games) in found.items()}


def _pair(
    event: dict[str, Any],
    known: Known,
    round_no: int,
    allowed: set[int],
    ratings: dict[int, float] | None = None,
) -> pairing.Pairing:
    """Round ``round_no``'s pairing of the entrants still in."""
    seed = int(event["seed"])
    out = {e.id for e in known.entrants if e.withdrawn is not None} | set(known.gone)
    by_record = {r.id: r for r in records(known.entrants, known.results)}
    if event["format"] == "round_robin":
        ids = [e.id for e in known.entrants if e.withdrawn is None or e.withdrawn > 0]
        return pairing.round_robin_round(
            ids, event["players"], allowed, seed, round_no, by_record, out, known.blocks
        )
    playing = [by_record[e.id] for e in known.entrants if e.id not in out]
    if ratings is not None:  # the first round: ordered by rating
        playing = [
            pairing.Record(r.id, r.points, ratings.get(r.id, 0.0), r.met, r.byes, r.seats)
            for r in playing
        ]
    return pairing.swiss(playing, event["players"], allowed, seed, round_no, known.blocks)


def _written(p: pairing.Pairing) -> rows.Round:
    return (p.tables, p.byes)


async def begin(hub: Hub, event: dict[str, Any], *, by_hand: bool = False) -> bool:
    """Start an open event with its first round; False if another process did. Too few
    entrants: refused (by hand) or the event is called off (at its start time)."""
    engine = hub.store.engine
    event_id = event["id"]
    known = await _known(hub, event_id)
    allowed = allowed_sizes(hub, event["game"], event["mode"], event["players"])
    live = [e.id for e in known.entrants if e.id not in known.gone]
    least = min(allowed) if allowed else 2
    if len(live) < least:
        if by_hand:
            raise ServerError("bad_request", f"an event needs at least {least} entrants to start")
        at = hub.now()
        await hub.write(lambda: rows.cancel(engine, event_id, at), "calling an event off")
        return False
    if event["format"] == "round_robin":
        rounds = len(pairing.round_robin(live, event["players"], allowed, int(event["seed"])))
        known = Known([e for e in known.entrants if e.id in live], [], known.results, known.blocks)
    else:
        rounds = int(event["rounds"])
    ratings = await _ratings(hub, event, live) if event["format"] == "swiss" else None
    first = _pair(event, known, 1, allowed, ratings)
    at = hub.now()
    gone = known.gone
    started = await hub.write(
        lambda: rows.start(engine, event_id, rounds, _written(first), at, gone),
        "starting an event",
    )
    if started:
        log.info("event %s started: %d entrants, %d rounds", event_id, len(live), rounds)
        await make_tables(hub, event_id)
    return bool(started)


async def make_tables(hub: Hub, event_id: str) -> int:
    """Make the games of the event's tables that have none (claimed first: once)."""
    engine = hub.store.engine
    event = await _event(hub, event_id)
    at = hub.now()
    unmade = await hub.patiently(lambda: rows.unmade(engine, event_id, at), "event tables")
    made = 0
    if not unmade:
        return 0
    known = await _known(hub, event_id)
    names = {e.id: e.name for e in known.entrants}
    for round_no, board in unmade:
        claimed = await hub.write(
            lambda round_no=round_no, board=board: rows.claim_table(
                engine, event_id, round_no, board, at
            ),
            "claiming an event table",
        )
        if not claimed:
            continue
        seated = await hub.patiently(
            lambda round_no=round_no, board=board: rows.seated(engine, event_id, round_no, board),
            "an event table",
        )
        seats = [
            {"name": names[a], "kind": "human", "account_id": a, "account": names[a]}
            for a in seated
        ]
        room, _tokens = await hub.create(
            event["game"],
            event["mode"],
            seats,
            listed=True,
            table=table_rules(event),
            hints=False,
            rated=event["rated"],
        )
        await hub.write(
            lambda round_no=round_no, board=board, gid=room.id: rows.set_table_game(
                engine, event_id, round_no, board, gid
            ),
            "an event table's game",
        )
        hub.push.moved(room, None)  # the first to move is told, if away and subscribed
        made += 1
    return made


def played_out(hub: Hub, stored: StoredGame) -> tuple[GameState, set[int]]:
    """The finished game replayed once: its final state, and the people's seats whose first
    move was a bot's (standing in: they did not come)."""
    game = hub.game(stored.game)
    state = game.new_game(
        stored.mode,
        stored.players,
        seed=stored.seed,
        setup=stored.setup,
        options=stored.options or None,
    )
    authors = standing_authors(stored.moves, stored.authors)
    first: dict[int, str | None] = {}
    for (_index, text), author in zip(line_of(stored.moves), authors, strict=True):
        first.setdefault(state.current_player(), author)
        state.apply(state.parse_move(text))
    missing = {
        seat
        for seat, author in first.items()
        if author is not None and author.startswith("bot:") and stored.seats[seat].kind == "human"
    }
    return state, missing


async def record_over(hub: Hub, event: dict[str, Any]) -> int:
    """Write the places and points of the event's tables whose games are over."""
    engine = hub.store.engine
    event_id = event["id"]
    over = await hub.patiently(lambda: rows.over(engine, event_id), "finished event tables")
    done = 0
    for round_no, board, game_id in over:
        stored: StoredGame | None = await hub.patiently(
            lambda game_id=game_id: hub.store.load(game_id), f"loading game {game_id}"
        )
        if stored is None or not stored.finished:
            continue
        placed = await asyncio.to_thread(_placed, hub, stored, event["rated"])
        if await hub.write(
            lambda round_no=round_no, board=board, placed=placed: rows.record(
                engine, event_id, round_no, board, placed
            ),
            "an event table's result",
        ):
            done += 1
    return done


def _placed(hub: Hub, stored: StoredGame, rated: bool) -> list[tuple[int, int, float, float, bool]]:
    """(account, place, points, score, no-show) of each entrant at a finished table."""
    state, missing = played_out(hub, stored)
    result = state.result()
    seats = stored.seats
    out = missing | (forfeited(seats) if rated else set())
    rank = places(result, out)
    points = place_points(rank)
    return [
        (
            seat.account_id,
            rank[seat.seat],
            points[seat.seat],
            float(result.scores[seat.seat]),
            seat.seat in missing,
        )
        for seat in seats
        if seat.account_id is not None
    ]


async def advance(hub: Hub, event: dict[str, Any]) -> bool:
    """Pair the next round (or finish the event) once every table of the current one is
    recorded; False when it is not time, or another process did it."""
    engine = hub.store.engine
    event_id = event["id"]
    round_no = int(event["round"])
    if await hub.patiently(lambda: rows.pending(engine, event_id, round_no), "event tables"):
        return False
    known = await _known(hub, event_id)
    out = {e.id for e in known.entrants if e.withdrawn is not None} | set(known.gone)
    still = [e for e in known.entrants if e.id not in out]
    at = hub.now()
    allowed = allowed_sizes(hub, event["game"], event["mode"], event["players"])
    least = min(allowed) if allowed else 2
    if round_no >= int(event["rounds"] or 0) or len(still) < least:
        ended = await hub.write(
            lambda: rows.finish(engine, event_id, round_no, at), "finishing an event"
        )
        if ended:
            log.info("event %s finished after round %d", event_id, round_no)
        return bool(ended)
    nxt = _pair(event, known, round_no + 1, allowed)
    gone = known.gone
    moved = await hub.write(
        lambda: rows.advance(engine, event_id, round_no, _written(nxt), gone),
        "an event's next round",
    )
    if moved:
        await make_tables(hub, event_id)
    return bool(moved)


async def tick(hub: Hub) -> None:
    """One look at the events: start those due, write finished tables, advance rounds, make
    the tables nobody made (a process stopped after its claim)."""
    engine = hub.store.engine
    at = hub.now()
    due = await asyncio.to_thread(rows.due, engine, at)
    for event_id in due:
        event = await _event(hub, event_id)
        if event["status"] == "open":
            await begin(hub, event)
    for event_id in await asyncio.to_thread(rows.running, engine):
        event = await _event(hub, event_id)
        await make_tables(hub, event_id)
        if await record_over(hub, event):
            event = await _event(hub, event_id)
        await advance(hub, event)


async def run(hub: Hub) -> None:
    """:func:`tick` every :data:`TICK` seconds until the server stops."""
    while True:
        try:
            await tick(hub)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if transient(exc):
                hub.health.failed(exc)
            else:
                log.exception("running the events failed")
        await asyncio.sleep(TICK)


# -- what the routes answer ---------------------------------------------------------------------
def _rules_json(rules: dict[str, Any]) -> EventRulesJSON:
    return EventRulesJSON(
        clock=rules.get("clock"), stand_in=rules.get("stand_in"), away_limit=rules.get("away_limit")
    )


def summary_json(event: dict[str, Any], entrants: int) -> EventSummaryJSON:
    return EventSummaryJSON(
        id=event["id"],
        name=event["name"],
        game=event["game"],
        mode=event["mode"],
        players=event["players"],
        format=event["format"],
        rated=bool(event["rated"]),
        rules=_rules_json(event["rules"]),
        status=event["status"],
        rounds=event["rounds"],
        round=event["round"],
        starts=event["starts"],
        started=event["started"],
        ended=event["ended"],
        creator=event.get("creator"),
        entrants=entrants,
    )


async def listing(hub: Hub) -> EventListJSON:
    engine = hub.store.engine

    def read() -> tuple[list[dict[str, Any]], ...]:
        return (
            rows.listing(engine, ["open"], 100),
            rows.listing(engine, ["running"], 100),
            rows.listing(engine, ["finished", "cancelled"], FINISHED_SHOWN),
        )

    upcoming, running_now, finished = await hub.patiently(read, "events")
    return EventListJSON(
        upcoming=[summary_json(e, e["entrants"]) for e in upcoming],
        running=[summary_json(e, e["entrants"]) for e in running_now],
        finished=[summary_json(e, e["entrants"]) for e in finished],
    )


def _standing_json(lines: Sequence[Any]) -> list[StandingJSON]:
    return [
        StandingJSON(
            rank=line.rank,
            name=line.entrant.name,
            bot=line.entrant.bot,
            points=line.points,
            buchholz=round(line.buchholz, 4),
            score=line.score,
            wins=line.wins,
            played=line.played,
            byes=line.byes,
            withdrawn=line.entrant.withdrawn is not None,
        )
        for line in lines
    ]


async def detail(hub: Hub, event_id: str, viewer: Account | None) -> EventJSON:
    """Everything about an event: entrants, rounds, standings, the final table."""
    event = await _event(hub, event_id)
    engine = hub.store.engine
    known = await _known(hub, event_id)
    tables = await hub.patiently(lambda: rows.tables(engine, event_id), "event tables")
    by_id = {e.id: e for e in known.entrants}
    schedule: list[EventRoundJSON] = []
    for round_no in range(1, int(event["round"]) + 1):
        mine = [r for r in known.results if r.round == round_no]
        round_tables: list[EventTableJSON] = []
        for t in (t for t in tables if t["round"] == round_no):
            seats = sorted((r for r in mine if r.table == t["board"]), key=lambda r: r.seat or 0)
            round_tables.append(
                EventTableJSON(
                    board=t["board"] + 1,
                    game_id=t["game_id"],
                    finished=t["recorded"],
                    seats=[
                        EventSeatJSON(
                            name=by_id[r.account_id].name,
                            bot=by_id[r.account_id].bot,
                            seat=r.seat or 0,
                            place=r.place,
                            points=r.points,
                            score=r.score,
                            no_show=r.no_show,
                        )
                        for r in seats
                        if r.account_id in by_id
                    ],
                )
            )
        byes = [by_id[r.account_id].name for r in mine if r.table is None and r.account_id in by_id]
        schedule.append(EventRoundJSON(round=round_no, tables=round_tables, byes=byes))
    lines = _standing_json(standings(known.entrants, known.results))
    out = EventJSON(
        **summary_json(event, len(known.entrants)),
        roster=[
            EntrantJSON(name=e.name, bot=e.bot, withdrawn=e.withdrawn, why=cast(Any, e.why))
            for e in known.entrants
        ],
        schedule=schedule,
        standings=lines,
        final=lines if event["status"] == "finished" else None,
        joined=None if viewer is None else viewer.id in by_id,
        can_start=viewer is not None
        and event["status"] == "open"
        and event["creator_id"] == viewer.id,
    )
    return out
