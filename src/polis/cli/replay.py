"""``polis replay``: check every move of a game record and print its result (formats.md §3),
as JSON or, with ``--text``, for a person: the seats, the result and every move in words."""

from __future__ import annotations

import json
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from polis.cli.common import USAGE_ERROR, clip, echo_json, fail, game_of, read_json
from polis.cli.text import game_wording, text_parts
from polis.core.errors import PolisError, RecordError
from polis.core.protocol import Game, GameState
from polis.core.registry import get_game
from polis.core.wording import LANGUAGES, WordingError, Words, pick_language, words
from polis.games.text import LETTERS, seat_label, wrap


def replay(
    file: Annotated[str, typer.Argument(help="Game record (JSON, formats.md §3); - = stdin.")],
    text: Annotated[
        bool,
        typer.Option("--text", help="Print the result and every move in words instead of JSON."),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            help=f"The language of --text: {', '.join(LANGUAGES)} "
            "(default: POLIS_LANG, else the locale's, else en).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Replay a game record, checking every move against the rules.

    Prints {"ok": true, ...} with the score reports and ranking (exit 0), or
    {"ok": false, "move_index": N, "error": "..."} (exit 2). With --text: the seats, the
    result (A 62, B 34: A wins) and every move told in words.

    Example: polis replay game.json --text
    """
    try:
        language = pick_language(lang)
    except WordingError as exc:
        fail(str(exc))
    try:
        record = read_json(file)
        game = get_game(game_of(record))
        state = game.from_record(record)
    except RecordError as exc:
        _refuse(exc.move_index, str(exc), text)
    except PolisError as exc:
        _refuse(None, str(exc), text)
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
            _refuse(None, "the record's result does not match the replayed game's ranking", text)
        out.update(result)
    if text:
        console = Console()
        if not console.is_terminal:
            console.width = 80
        for line in told(game, record, state, language):
            console.print(line, markup=False, highlight=False)
    else:
        echo_json(out)


def told(game: Game, record: dict[str, Any], final: GameState, lang: str) -> list[str]:
    """A replayed record for a person: a heading with the seats, the result (or who is to
    move), then the opening and every move, numbered, in the words of the narration (only
    what a spectator sees: no secret card before the end reveals it)."""
    say = game_wording(game, lang) or words(lang, ("polis.games", "i18n"))
    names = _names(record, final.num_players, say)
    labels = [seat_label(p, n) for p, n in enumerate(names)]
    mode = say(f"mode.{final.mode}") if say.message(f"mode.{final.mode}") else final.mode
    heading = say(
        "term.replay.heading",
        title=game.title,
        mode=mode,
        seats=", ".join(labels),
        moves=len(final.history),
    )
    lines = [heading]
    if final.is_terminal():
        result = final.result()
        scores = ", ".join(f"{LETTERS[p]} {s}" for p, s in enumerate(result.scores))
        best = [labels[p] for p in result.ranking[0]]
        lines.append(
            say("term.replay.result", scores=scores, names=say.names(best), count=len(best))
        )
    else:
        lines.append(say("term.replay.unfinished", name=labels[final.current_player()]))
    parts = text_parts(game)
    opening = {k: v for k, v in record.items() if k not in ("result", "authors", "taken_back")}
    state = game.from_record({**opening, "moves": []})

    def tell(events: Any) -> str:
        said = (parts.narrate(e, names, lang) for e in events if e.visible_to(None))
        return " ".join(s for s in said if s)

    start = tell(state.opening_events())
    if start:
        lines += wrap(start, 80)
    width = len(str(len(final.history)))
    for number, move in enumerate(final.history, start=1):
        head = f"{number:>{width}}. {move}"
        sentence = tell(state.play(move))
        lines += wrap(f"{head}: {sentence}" if sentence else head, 80, " " * (width + 2))
    return lines


def _names(record: dict[str, Any], players: int, say: Words) -> list[str]:
    """The record's names as the terminal shows them (``bot:easy`` is ``bot easy``)."""
    given = record.get("names")
    names = [n for n in given if isinstance(n, str)] if isinstance(given, list) else []
    if len(names) != players:
        return [say("term.player", n=p + 1) for p in range(players)]
    return [f"bot {n[4:]}" if n.startswith("bot:") else n for n in names]


def _refuse(move_index: int | None, message: str, text: bool = False) -> NoReturn:
    message = clip(message)
    payload = {"ok": False, "move_index": move_index, "error": message}
    if move_index is None:
        fail(message, None if text else payload)
    if not text:
        typer.echo(json.dumps(payload))
    typer.echo(f"error: move {move_index}: {message}", err=True)
    raise typer.Exit(USAGE_ERROR)


def register(app: typer.Typer) -> None:
    app.command()(replay)
