"""What every command shares: reading JSON input, printing JSON, turning errors into exit code 2."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import typer

from polis.core.errors import InputError, PolisError
from polis.core.protocol import Game
from polis.core.registry import game_names, games

#: Exit code for anything the user got wrong (formats.md §3).
USAGE_ERROR = 2


def fail(message: str, payload: dict[str, Any] | None = None) -> NoReturn:
    """Print ``payload`` (if any) as JSON on stdout, ``message`` on stderr, exit 2."""
    if payload is not None:
        typer.echo(json.dumps(payload))
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(USAGE_ERROR)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn a :class:`PolisError` into one clear line and exit code 2 (never a traceback)."""
    try:
        yield
    except PolisError as exc:
        fail(str(exc))


def read_json(path: str) -> Any:
    """Read a JSON document from ``path`` (``-`` = standard input)."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None


def echo_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def write_json_atomic(path: Path, data: Any) -> None:
    """Write ``data`` so that a crash leaves either the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1, ensure_ascii=False)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def game_of(data: Any) -> str:
    """The ``game`` key of an input document, checked."""
    if not isinstance(data, dict):
        raise InputError("the file must hold a JSON object")
    name = data.get("game")
    if not isinstance(name, str):
        known = " or ".join(game_names())
        raise InputError(f"the file has no 'game' key ({known})")
    return name


def example_game() -> Game:
    """The game the help texts' examples use (the first installed one)."""
    return next(iter(games().values()))


def game_help() -> str:
    """Help of a GAME argument: the installed games."""
    return "The game: " + " or ".join(game_names()) + "."


def mode_help() -> str:
    """Help of a --mode option: each game's modes, the first being the default."""
    modes = "; ".join(f"{name}: {'/'.join(g.modes)}" for name, g in games().items())
    return f"The game's mode ({modes}; default: the first)."
