"""Learn to play: every game's tutorial plays on the engine as scripted, and the API serves it.

Each chapter's start is legal; at every move step the step's move, and every other move it
accepts, is legal where it is asked for and passes the step's check (each followed by the
scripted replies, then the rest of the chapter); a hint marks the step's move; the chapters
cover every mode of the game; every text, refusal and title is in the game's four catalogues.
Over the API: the script, a position reached, refusals (a move the step does not ask for, an
unknown chapter, a game without a tutorial).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from polis.core.registry import get_game
from polis.core.wording import LANGUAGES
from polis.server.http.routes.learn import (
    Reached,
    accepted,
    failed_checks,
    move_steps,
    play,
    position_message,
    start,
    tutorial_of,
)

GAMES = ["quadropolis", "metropolys"]
SRC = Path(__file__).resolve().parents[2] / "src" / "polis"


def chapters(name: str) -> list[Mapping[str, Any]]:
    tutorial = tutorial_of(get_game(name))
    if tutorial is None:
        pytest.skip(f"{name} has no tutorial yet")
    return list(tutorial["chapters"])


def chapter_ids() -> list[tuple[str, str]]:
    out = []
    for name in GAMES:
        tutorial = tutorial_of(get_game(name))
        for chapter in tutorial["chapters"] if tutorial else ():
            out.append((name, chapter["id"]))
    return out


@pytest.mark.parametrize(("name", "chapter_id"), chapter_ids())
def test_every_step_is_legal_where_it_is_asked_for_and_passes_its_check(
    name: str, chapter_id: str
) -> None:
    game = get_game(name)
    chapter = next(c for c in chapters(name) if c["id"] == chapter_id)
    learner = chapter.get("learner", 0)
    steps = move_steps(chapter)
    assert steps, "a chapter without a move teaches nothing by doing"
    state, log = start(game, chapter)
    for i, step in enumerate(steps):
        assert state.current_player() == learner, f"step {i}: the learner is not to move"
        legal = {m.text for m in state.legal_moves()}
        for text in accepted(step):
            assert text in legal, f"step {i}: {text} is not legal here"
            # every move the step accepts passes its check, and the chapter goes on from it
            alt = state.clone()
            play(alt, text, [])
            assert not failed_checks(alt.view(learner).to_json(), step.get("check", {})), text
            rest = [step, *steps[i + 1 :]]
            later = [m for s in rest for m in (s["move"], *s.get("then", ()))][1:]
            for text_later in later:
                play(alt, text_later, [])
        assert step["check"], f"step {i} checks nothing"
        play(state, step["move"], log)
        assert not failed_checks(state.view(learner).to_json(), step["check"])
        for reply in step.get("then", ()):
            assert state.current_player() != learner, f"step {i}: a reply for the learner"
            play(state, reply, log)
    # the page is given the same: the hint of each step is its move
    for n in range(len(steps) + 1):
        message = position_message(
            name, game, Reached(game, chapter, [s["move"] for s in steps[:n]])
        )
        if n < len(steps):
            assert message["hint"]["move"] == steps[n]["move"]
            assert steps[n]["move"] in message["legal"]
            assert message["choices"] is not None
        else:
            assert message["hint"] is None


@pytest.mark.parametrize("name", GAMES)
def test_the_chapters_cover_every_mode_and_their_words_are_in_every_language(name: str) -> None:
    game = get_game(name)
    chs = chapters(name)
    assert {c["mode"] for c in chs} == set(game.modes)
    keys = {"tutorial.task"}
    for c in chs:
        keys.add(c["title"])
        for step in c["steps"]:
            keys.add(step["text"])
            if step.get("move"):
                keys.add(step["refuse"])
                assert step["refuse"] != step["text"]
    folder = SRC / "games" / name / "web" / "i18n"
    for lang in LANGUAGES:
        words = json.loads((folder / f"{lang}.json").read_text("utf-8"))
        missing = sorted(k for k in keys if not words.get(k))
        assert not missing, f"{lang}: {missing}"
        unused = sorted(k for k in words if k.startswith("tutorial.") and k not in keys)
        assert not unused, f"{lang}: keys no step uses: {unused}"


@pytest.mark.parametrize("name", GAMES)
def test_the_api_serves_the_script_and_the_positions(client: TestClient, name: str) -> None:
    chs = chapters(name)
    script = client.get(f"/api/learn/{name}").json()
    assert [c["id"] for c in script["chapters"]] == [c["id"] for c in chs]
    first = chs[0]
    steps = move_steps(first)
    r = client.post(f"/api/learn/{name}/{first['id']}", json={"moves": []})
    assert r.status_code == 200, r.text
    msg = r.json()
    assert msg["seat"] == first.get("learner", 0) and msg["hint"]["move"] == steps[0]["move"]
    r = client.post(f"/api/learn/{name}/{first['id']}", json={"moves": [steps[0]["move"]]})
    assert r.status_code == 200 and r.json()["position"] > msg["position"]
    # a legal move the step does not ask for is refused (the page refuses it first, in words)
    other = next(m for m in msg["legal"] if m not in accepted(steps[0]))
    r = client.post(f"/api/learn/{name}/{first['id']}", json={"moves": [other]})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid"
    assert client.post(f"/api/learn/{name}/nowhere", json={"moves": []}).status_code == 404


def test_a_game_without_a_tutorial_has_none(client: TestClient) -> None:
    assert client.get("/api/learn/counting").status_code == 404
    assert client.get("/api/learn/nosuchgame").status_code == 404
