"""``polis replay``: check every move of a game record and print its result (formats.md §3)."""

from __future__ import annotations

import json
from typing import Annotated, Any, NoReturn

import typer

from polis.cli.common import USAGE_ERROR, clip, echo_json, fail, game_of, read_json
from polis.core.errors import PolisError, RecordError
from polis.core.registry import get_game


def replay(
    file: Annotated[str, typer.Argument(help="Game record (JSON, formats.md §3); - = stdin.")],
) -> None:
    """Replay a game record, checking every move against the rules.

    Prints {"ok": true, ...} with the score reports and ranking (exit 0), or
    {"ok": false, "move_index": N, "error": "..."} (exit 2).

    Example: polis replay game.json
    """
    try:
        record = read_json(file)
        game = get_game(game_of(record))
        state = game.from_record(record)
    except RecordError as exc:
        _refuse(exc.move_index, str(exc))
    except PolisError as exc:
        _refuse(None, str(exc))
    out: dict[str, Any] = {
        "ok": True,
        "game": game.name,
        "mode": state.mode,
        "players": state.num_players,
        "moves": len(state.history),
        "finished": state.is_terminal(),
    }
    if state.is_terminal():
        result = state.result().to_json()
        recorded = record.get("result")
        if (
            isinstance(recorded, dict)
            and recorded.get("ranking", result["ranking"]) != result["ranking"]
        ):
            _refuse(None, "the record's result does not match the replayed game's ranking")
        out.update(result)
    echo_json(out)


def _refuse(move_index: int | None, message: str) -> NoReturn:
    message = clip(message)
    payload = {"ok": False, "move_index": move_index, "error": message}
    if move_index is None:
        fail(message, payload)
    typer.echo(json.dumps(payload))
    typer.echo(f"error: move {move_index}: {message}", err=True)
    raise typer.Exit(USAGE_ERROR)


def register(app: typer.Typer) -> None:
    app.command()(replay)
