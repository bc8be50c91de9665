"""Learn to play: each game's tutorial, played on the real engine from scripted positions.

A game's tutorial is data in its own package (``polis.games.<game>.tutorial.TUTORIAL``):
chapters, each a scripted start (mode, players, seed, the moves already played) and steps.
A step is a message key (``text``, in the game's catalogue) and, unless it only explains,
the move the learner must make (``move``; ``accept`` lists other moves that do as well),
the key that explains a refused move by naming its rule (``refuse``), a ``check`` on the
learner's view after the move (dotted paths into the view's JSON and the values they must
hold) and the opponents' scripted replies (``then``).

Nothing is stored: the page sends the learner's moves so far and is answered with the
position they reached (the same ``view``, ``choices`` and log as a table's state message),
with the next move step's target as a hint (its structured choice) for the board to mark.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import APIRouter
from pydantic import Field

from polis.core.errors import InputError
from polis.core.protocol import Game, GameState
from polis.server.errors import ServerError
from polis.server.http.deps import HubDep
from polis.server.http.inputs import Body
from polis.server.live.room import choices_of

router = APIRouter(prefix="/api")

#: The most moves a learner's request may carry (a chapter has far fewer move steps).
MAX_MOVES = 64


def tutorial_of(game: Game) -> Mapping[str, Any] | None:
    """The tutorial in the game's package, or None for a game without one."""
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.tutorial")
    except ModuleNotFoundError:
        return None
    tutorial: Mapping[str, Any] = module.TUTORIAL
    return tutorial


def chapter_of(tutorial: Mapping[str, Any], chapter_id: str) -> Mapping[str, Any] | None:
    return next((c for c in tutorial["chapters"] if c["id"] == chapter_id), None)


def move_steps(chapter: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The steps where the learner moves, in order."""
    return [step for step in chapter["steps"] if step.get("move")]


def accepted(step: Mapping[str, Any]) -> list[str]:
    """The moves that pass ``step``: its own, then the others it accepts."""
    return [step["move"], *step.get("accept", ())]


def lookup(data: Any, path: str) -> Any:
    """The value at a dotted ``path`` of JSON data (list indices as numbers), or None."""
    for part in path.split("."):
        if isinstance(data, list) and part.isdigit() and int(part) < len(data):
            data = data[int(part)]
        elif isinstance(data, Mapping) and part in data:
            data = data[part]
        else:
            return None
    return data


def failed_checks(view: Mapping[str, Any], check: Mapping[str, Any]) -> list[str]:
    """The paths of ``check`` whose value in ``view`` differs from the one expected."""
    return [path for path, want in check.items() if lookup(view, path) != want]


def start(game: Game, chapter: Mapping[str, Any]) -> tuple[GameState, list[dict[str, Any]]]:
    """The chapter's scripted start: a new game and its moves already played, with the log."""
    state = game.new_game(chapter["mode"], chapter["players"], seed=chapter["seed"])
    log = [{"move": None, **e.to_json(), "to": e.to} for e in state.opening_events()]
    for text in chapter.get("start", ()):
        play(state, text, log)
    return state, log


def play(state: GameState, text: str, log: list[dict[str, Any]]) -> None:
    """Play ``text`` on the engine (InputError if it is not legal here), logging its events."""
    move = state.parse_move(text)
    if move not in state.legal_moves():
        raise InputError(f"{text} is not a legal move here")
    position = len(state.history)
    log.extend({"move": position, **e.to_json(), "to": e.to} for e in state.play(move))


class Reached:
    """Where a learner's moves led: the state, its log, the next move step (None: done)."""

    def __init__(self, game: Game, chapter: Mapping[str, Any], moves: Sequence[str]) -> None:
        steps = move_steps(chapter)
        if len(moves) > len(steps):
            raise ServerError("invalid", "more moves than the chapter has steps")
        self.state, self.log = start(game, chapter)
        self.learner: int = chapter.get("learner", 0)
        for step, text in zip(steps, moves, strict=False):
            if text not in accepted(step):
                raise ServerError("invalid", f"{text} is not the move this step asks for")
            play(self.state, text, self.log)
            failed = failed_checks(self.state.view(self.learner).to_json(), step.get("check", {}))
            if failed:
                raise ServerError("invalid", f"the step's check failed: {', '.join(failed)}")
            for reply in step.get("then", ()):
                play(self.state, reply, self.log)
        self.next = steps[len(moves)] if len(moves) < len(steps) else None


def public_chapter(chapter: Mapping[str, Any]) -> dict[str, Any]:
    """What the page needs of a chapter: its steps' words, the moves each accepts."""
    steps = []
    for step in chapter["steps"]:
        out: dict[str, Any] = {"text": step["text"]}
        if step.get("move"):
            out.update(move=step["move"], accept=accepted(step), refuse=step["refuse"])
        if step.get("mark"):
            out["mark"] = step["mark"]
        steps.append(out)
    return {
        "id": chapter["id"],
        "title": chapter["title"],
        "mode": chapter["mode"],
        "players": chapter["players"],
        "learner": chapter.get("learner", 0),
        "steps": steps,
    }


def game_and_tutorial(hub: Any, name: str) -> tuple[Game, Mapping[str, Any]]:
    game = hub.games.get(name)
    tutorial = tutorial_of(game) if game is not None else None
    if game is None or tutorial is None:
        raise ServerError("not_found", f"no tutorial for {name[:32]!r}")
    return game, tutorial


@router.get("/learn/{name}")
def script(name: str, hub: HubDep) -> dict[str, Any]:
    """A game's tutorial: its chapters and their steps (404 for a game without one)."""
    _, tutorial = game_and_tutorial(hub, name)
    return {"game": name, "chapters": [public_chapter(c) for c in tutorial["chapters"]]}


class LearnIn(Body):
    #: The learner's moves so far in the chapter, one per move step.
    moves: list[str] = Field(default_factory=list, max_length=MAX_MOVES)


def position_message(name: str, game: Game, reached: Reached) -> dict[str, Any]:
    """The position reached, shaped like a table's state message for the learner's seat."""
    state, seat = reached.state, reached.learner
    current = state.current_player()
    finished = current < 0
    view = state.view(seat)
    choices = choices_of(game)
    legal = state.legal_moves() if not finished and current == seat else []
    hint = None
    if reached.next is not None and legal:
        found = next(m for m in legal if m.text == reached.next["move"])
        hint = {
            "move": found.text,
            "choice": None if choices is None else choices(view, [found]),
        }
    log = [
        {k: v for k, v in e.items() if k != "to"}
        for e in reached.log
        if e["to"] is None or seat in e["to"]
    ]
    return {
        "type": "state",
        "game": name,
        "mode": state.mode,
        "players": state.num_players,
        "seat": seat,
        "position": len(state.history),
        "current_player": current,
        "finished": finished,
        "view": view.to_json(),
        "legal": [m.text for m in legal],
        "choices": choices(view, legal) if choices is not None and legal else None,
        "result": state.result().to_json() if finished else None,
        "log": log,
        "hint": hint,
    }


@router.post("/learn/{name}/{chapter_id}")
def position(name: str, chapter_id: str, body: LearnIn, hub: HubDep) -> dict[str, Any]:
    """The position the learner's ``moves`` reached in the chapter: 422 when a move is not
    one its step accepts (the page refuses those itself, naming the rule)."""
    game, tutorial = game_and_tutorial(hub, name)
    chapter = chapter_of(tutorial, chapter_id)
    if chapter is None:
        raise ServerError("not_found", f"the tutorial has no chapter {chapter_id[:32]!r}")
    try:
        reached = Reached(game, chapter, body.moves)
    except InputError as err:  # a scripted move the engine refuses: the script is wrong
        raise ServerError("invalid", str(err)) from err
    return position_message(name, game, reached)
