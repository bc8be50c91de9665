"""The store's move path: a batch of moves of many games in one transaction, each behind its
own position guard (on PostgreSQL all the guards are one statement)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from polis.server.store.games import Append, SeatInfo, Store, StoredGame


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    made = Store(db_url)
    yield made
    made.close()


def new_game(store: Store, game_id: str) -> None:
    seats = [SeatInfo(i, f"p{i}", "human", None, None) for i in range(2)]
    store.create_game(
        StoredGame(game_id, "counting", "standard", 2, 1, {}, {}, seats, bot_turn=False)
    )


def test_a_batch_stores_each_move_behind_its_own_guard(store: Store) -> None:
    for gid in ("a", "b", "c", "d"):
        new_game(store, gid)
    assert store.append_moves([Append("a", 0, "1"), Append("b", 0, "1")]) == [True, True]
    result = {"ranks": [0, 1]}
    batch = [
        Append("a", 1, "2", bot_turn=True, author="person"),
        Append("b", 0, "9"),  # stale: b is at position 1
        Append("c", 0, "3", result=result),  # ends the game
        Append("d", 5, "4"),  # stale: d is at 0
    ]
    assert store.append_moves(batch) == [True, False, True, False]
    a, b, c, d = (store.load(gid) for gid in "abcd")
    assert a is not None and a.moves == ["1", "2"] and a.bot_turn is True
    assert a.authors == [None, "person"]
    assert b is not None and b.moves == ["1"]
    assert c is not None and c.moves == ["3"] and c.finished
    assert d is not None and d.moves == []
    # a finished game takes no move, whatever its position
    assert store.append_moves([Append("c", 1, "5"), Append("a", 2, "3")]) == [False, True]
    a = store.load("a")
    assert a is not None and a.bot_turn is True  # kept when a move says nothing of it
    progress = store.progress(["a", "b", "c", "d"])
    assert {gid: p.position for gid, p in progress.items()} == {"a": 3, "b": 1, "c": 1, "d": 0}


def test_two_moves_of_one_game_in_a_batch_are_stored_in_order(store: Store) -> None:
    new_game(store, "a")
    assert store.append_moves([Append("a", 0, "1"), Append("a", 1, "2")]) == [True, True]
    assert store.append_moves([Append("a", 2, "3"), Append("a", 2, "4")]) == [True, False]
    loaded = store.load("a")
    assert loaded is not None and loaded.moves == ["1", "2", "3"]
