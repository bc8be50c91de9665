"""What every command shares: reading JSON input safely, printing JSON, one-line errors (exit 2),
and the help layout (arguments by name, flags without a value type)."""

from __future__ import annotations

import inspect
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from polis.core.errors import InputError, PolisError
from polis.core.protocol import Game
from polis.core.registry import game_names, games
from polis.games.text import LETTERS

#: Exit code for anything the user got wrong (formats.md §3).
USAGE_ERROR = 2
#: Largest JSON input read: a finished game's record is about 10 kB, a city file 200 bytes.
MAX_BYTES = 2 * 1024 * 1024
#: Deepest nesting of arrays and objects read: the formats nest 4 levels at most.
MAX_DEPTH = 32
#: Longest error message printed (a message quotes the input, which may be huge).
MAX_MESSAGE = 400


def clip(message: str) -> str:
    """``message`` cut to :data:`MAX_MESSAGE` characters, on one line."""
    message = " ".join(message.split())
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 3] + "..."


def fail(message: str, payload: dict[str, Any] | None = None) -> NoReturn:
    """Print ``payload`` (if any) as JSON on stdout, ``message`` on stderr, exit 2."""
    message = clip(message)
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


def _read_text(path: str) -> str:
    """At most :data:`MAX_BYTES` of ``path`` (``-`` = standard input) as text."""
    try:
        if path == "-":
            text = sys.stdin.read(MAX_BYTES + 1)
            if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
                raise InputError(f"the input is larger than {MAX_BYTES // 1024} kB")
            return text.removeprefix("\ufeff")
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError("the input is not UTF-8 text") from None
    if len(data) > MAX_BYTES:
        raise InputError(f"{path} is larger than {MAX_BYTES // 1024} kB: not a polis file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text") from None


def _reject_constant(name: str) -> Any:
    raise InputError(f"{name} is not a JSON number")


def _depth_over(value: Any, limit: int) -> bool:
    """Is ``value`` nested deeper than ``limit``? (Iterative: the input may be deep.)"""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def read_json(path: str) -> Any:
    """Read a JSON document from ``path`` (``-`` = standard input), bounded in size and depth.

    Every way the input can be wrong is an InputError: missing, too large, not UTF-8, not
    JSON, nested deeper than :data:`MAX_DEPTH`, a number too long to convert.
    """
    text = _read_text(path)
    where = "the input" if path == "-" else path
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{where} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise InputError(f"{where} nests arrays or objects more than {MAX_DEPTH} deep") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise InputError(f"{where} is not usable JSON: {exc}") from None
    if isinstance(data, dict | list) and _depth_over(data, MAX_DEPTH):
        raise InputError(f"{where} nests arrays or objects more than {MAX_DEPTH} deep")
    return data


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


def parse_seat(text: str, players: int | None = None, option: str = "--seat") -> int:
    """The seat (0 = first) that ``text`` names as the boards letter it, ``A``-``D``, or as
    a number ``1``-``4``; InputError naming both forms otherwise, or when the game has only
    ``players`` seats."""
    given = text.strip().upper()
    if len(given) == 1 and given in LETTERS:
        seat = LETTERS.index(given)
    elif given.isdigit() and 1 <= int(given) <= len(LETTERS):
        seat = int(given) - 1
    else:
        raise InputError(
            f"{option} {text}: a seat is a letter {LETTERS[0]}-{LETTERS[-1]} "
            f"or a number 1-{len(LETTERS)}"
        )
    if players is not None and seat >= players:
        raise InputError(
            f"{option} {text}: a {players}-player game has seats "
            f"{LETTERS[0]}-{LETTERS[players - 1]} (1-{players})"
        )
    return seat


def example_game() -> Game:
    """The game the help texts' examples use (the first installed one)."""
    return next(iter(games().values()))


def game_help() -> str:
    """Help of a GAME argument: the installed games."""
    return "The game: " + " or ".join(game_names()) + "."


def mode_help() -> str:
    """Help of a --mode option: each game's modes."""
    modes = "; ".join(f"{name}: {'/'.join(g.modes)}" for name, g in games().items())
    return f"The game's mode ({modes})."


def mode_default() -> str:
    """What an omitted --mode means, for the help's default column (each game's first mode)."""
    return ", ".join(f"{g.default_mode} for {name}" for name, g in games().items())


def _tidy_help(params: list[Any]) -> None:
    """Show arguments by name and flags without a value type (``--text``, not ``--text <bool>``,
    which suggests that ``--text true`` works)."""
    for param in params:
        if param.metavar is not None:
            continue
        if isinstance(param, TyperOption) and param.is_flag:
            param.metavar = ""
        elif isinstance(param, TyperArgument) and param.name:
            param.metavar = param.name.upper()


def reflow(text: str | None) -> str | None:
    """``text`` with its paragraphs each on one line: a docstring's hard line breaks would
    be wrapped again by Rich into ragged lines (``game with`` / ``    the time left``).
    Paragraphs stay apart; one that starts with click's ``\b`` keeps its lines."""
    if not text:
        return text
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(p if p.startswith("\b") else " ".join(p.split()) for p in paragraphs)


def _reflow_all(command: Any) -> None:
    """The command's help and every option's, each paragraph on one line."""
    command.help = reflow(command.help)
    for param in command.params:
        if isinstance(param, TyperOption | TyperArgument) and getattr(param, "help", None):
            param.help = reflow(param.help)


class Command(TyperCommand):
    """A command with the help layout above: ``Usage: polis score [OPTIONS] FILE``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _tidy_help(self.params)  # error messages name the argument as the help does
        _reflow_all(self)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _tidy_help(self.get_params(ctx))
        super().format_help(ctx, formatter)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                name = param.metavar or (param.name or "").upper()
                pieces.append(name if param.required else f"[{name}]")
        return pieces


class Group(TyperGroup):
    """The ``polis`` group with the same help layout as its commands."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _reflow_all(self)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _tidy_help(self.get_params(ctx))
        super().format_help(ctx, formatter)


def games_bar(stack: ExitStack, err: Console, games: int) -> Callable[[int], None]:
    """A Rich progress bar of ``games`` on the terminal (closed with ``stack``, and gone once
    closed); answers the function that sets how many are finished."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = stack.enter_context(
        Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=True,
        )
    )
    task = bar.add_task("games", total=games)
    return lambda finished: bar.update(task, completed=finished)
