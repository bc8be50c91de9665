"""A table's chat across two ``polis serve`` processes sharing a PostgreSQL store and Redis:
a line said through one process reaches the seats and allowed spectators connected through
the other, and a newcomer on either gets it from the store.

Real servers: a PostgreSQL cluster and a redis-server of the test's own (``services.py``).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from .clients import PEOPLE, Player, create_game
from .services import Postgres, Redis, Serve

#: Real PostgreSQL, Redis or nginx servers of the test's own: not in ``make check``.
pytestmark = pytest.mark.cluster


def say(player: Player, text: str) -> None:
    player.ws.send(json.dumps({"type": "chat", "text": text}))


def heard(player: Player, text: str) -> dict[str, Any]:
    return player.until(lambda m: m.get("type") == "chat" and m.get("text") == text, timeout=15)


def test_a_line_reaches_the_other_process_and_is_kept(pg: Postgres, bus: Redis) -> None:
    db = pg.database(f"chat_{uuid.uuid4().hex[:8]}")
    with Serve(db, "--redis", bus.url) as a, Serve(db, "--redis", bus.url) as b:
        game = create_game(a.base, PEOPLE, chat_spectators=True)
        gid = game["id"]
        ada = Player(a.base, gid, game["seats"][0]["token"])
        lin = Player(b.base, gid, game["seats"][1]["token"])
        watcher = Player(b.base, gid, None)
        say(ada, "hello from A")
        line = heard(lin, "hello from A")
        assert (line["seat"], line["name"]) == (0, "Ada")
        assert heard(watcher, "hello from A")["id"] == line["id"]
        say(lin, "hello from B")
        assert heard(ada, "hello from B")["seat"] == 1
        late = Player(a.base, gid, None)
        welcome = next(m for m in late.messages if m["type"] == "welcome")
        assert [x["text"] for x in welcome["chat"]["lines"]] == ["hello from A", "hello from B"]
        for p in (ada, lin, watcher, late):
            p.close()
