"""Each game's part of the web client: served from the game's package, worded in every
language, and the only place (with the game's own folder) that knows the game.

The server's Python files and the generic client files (page, style, app, DOM, i18n and
connection scripts, generic catalogues) name no game and state no game fact; games are found
through the registry and ``/api/meta``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from polis.core.protocol import Game
from polis.core.registry import games
from polis.server.http.webfiles import LANGUAGES, game_client, web_folder

SRC = Path(__file__).resolve().parents[2] / "src" / "polis"
SERVER = SRC / "server"
STATIC = SERVER / "static"
GENERIC_CLIENT = [
    STATIC / "index.html",
    STATIC / "style.css",
    *sorted((STATIC / "js").glob("*.js")),
    *sorted((STATIC / "i18n").glob("*.json")),
]

#: Facts of the games beyond their names, titles and modes: pieces, places, notation,
#: numbers, data files. None of them may appear in a server or generic client file.
FACTS = [
    r"urbanist",
    r"mayor",
    r"architects?",
    r"tower[ _]blocks?",
    r"office[ _]towers?",
    r"public[ _]services?",
    r"harbou?rs?",
    r"monuments?",
    r"construction[ _]site",
    r"r1c1",
    r"r\d+c\d+",
    r"TOSUPpFHM",
    r"1440",
    r"2200",
    r"chic",
    r"archaeolog\w*",
    r"neighbou?rhoods?",
    r"bridges",
    r"statues",
    r"outskirts",
    r"subway",
    r"metro",
    r"\d+@\d+",
    r"715",
    r"716",
    r"mats\.json",
    r"board\.json",
    r"x_px",
]


def served_games() -> dict[str, Game]:
    """The registered games that ship a browser client."""
    return {name: g for name, g in games().items() if game_client(g) is not None}


def _forbidden() -> list[re.Pattern[str]]:
    words = list(FACTS)
    for name, game in games().items():
        if web_folder(game) is None:
            continue  # the toy test game lives in tests/ and may be named anywhere
        words += [re.escape(name), re.escape(game.title), *(re.escape(m) for m in game.modes)]
    return [re.compile(rf"(?<![\w]){w}(?![\w])", re.IGNORECASE) for w in words]


def _server_files() -> Iterator[Path]:
    yield from sorted(SERVER.rglob("*.py"))
    yield from GENERIC_CLIENT


def test_the_server_and_the_generic_client_name_no_game_and_no_game_fact() -> None:
    assert len(served_games()) >= 2, "both real games ship a web client"
    patterns = _forbidden()
    stray = []
    for path in _server_files():
        text = path.read_text("utf-8")
        for pattern in patterns:
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                stray.append(f"{path.relative_to(SRC)}:{line}: {match.group(0)!r}")
    assert not stray, "game names or facts outside the games:\n" + "\n".join(stray)


def test_the_check_finds_a_game_name_when_there_is_one() -> None:
    """The patterns are not vacuous: each game's name, modes and a fact are caught."""
    patterns = _forbidden()
    for name, game in served_games().items():
        for word in (name, game.title, *game.modes):
            assert any(p.search(f"x = '{word}'") for p in patterns), word
    assert any(p.search("the Urbanist moves") for p in patterns)


@pytest.mark.parametrize("name", sorted(served_games()))
def test_every_event_a_game_emits_is_worded_in_every_language(name: str) -> None:
    game = games()[name]
    keys: set[str] = set()
    for mode in game.modes:
        for players in range(game.min_players, game.max_players + 1):
            for seed in range(2):
                state = game.new_game(mode, players, seed=seed)
                keys |= {e.key for e in state.opening_events()}
                rng = random.Random(seed)
                while not state.is_terminal():
                    keys |= {e.key for e in state.play(state.random_move(rng))}
    assert len(keys) > 5
    client = game_client(game)
    assert client is not None
    catalogues = {lang: json.loads(client.read(f"i18n/{lang}.json")) for lang in LANGUAGES}
    for lang, words in catalogues.items():
        missing = sorted(k for k in keys if f"event.{k}" not in words)
        assert not missing, f"{name} {lang}: no wording for {missing}"
        assert set(words) == set(catalogues["en"]), f"{name} {lang} differs from en"
        assert words["title"] and all(f"mode.{m}" in words for m in game.modes)


@pytest.mark.parametrize("name", sorted(served_games()))
def test_every_literal_string_key_of_a_client_module_exists(name: str) -> None:
    """``t("key")`` in the game's module finds the key in its catalogue or the generic one."""
    client = game_client(games()[name])
    assert client is not None
    source = client.read("client.js")
    used = set(re.findall(r"""\bt\(\s*"([\w.]+)\"""", source))
    assert len(used) > 10
    for lang in LANGUAGES:
        known = set(json.loads(client.read(f"i18n/{lang}.json")))
        known |= set(json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8")))
        assert used <= known, f"{name} {lang}: {sorted(used - known)}"


def test_the_generic_client_keys_exist_in_every_language() -> None:
    source = "\n".join(p.read_text("utf-8") for p in sorted((STATIC / "js").glob("*.js")))
    used = set(re.findall(r"""\bt\(\s*"([\w.]+)\"""", source))
    used |= set(re.findall(r'data-i18n="([\w.]+)"', (STATIC / "index.html").read_text("utf-8")))
    assert len(used) > 20
    catalogues = {
        lang: set(json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8")))
        for lang in LANGUAGES
    }
    for lang, known in catalogues.items():
        assert used <= known, f"{lang}: {sorted(used - known)}"
        assert known == catalogues["en"]


def test_meta_lists_each_game_with_its_client_and_the_files_are_served(
    client: TestClient,
) -> None:
    meta = client.get("/api/meta").json()
    assert meta["languages"] == list(LANGUAGES)
    assert meta["games"]["counting"]["client"] is None  # the toy has no browser client
    for name, game in served_games().items():
        info = meta["games"][name]
        assert info["title"] == game.title and info["modes"] == list(game.modes)
        script = client.get(info["client"]["script"])
        assert script.status_code == 200 and "javascript" in script.headers["content-type"]
        assert "export function describe" in script.text
        assert client.get(info["client"]["style"]).status_code == 200
        for lang in LANGUAGES:
            strings = client.get(f"{info['client']['i18n']}/{lang}.json")
            assert strings.status_code == 200 and "title" in strings.json()
        assert client.get(f"/api/boards/{name}").json() == json.loads(
            json.dumps(game.client_data())
        )
    for path in (
        "/games/counting/client.js",
        "/games/nosuchgame/client.js",
        "/games/quadropolis/game.py",
        "/games/quadropolis/i18n/xx.json",
        "/games/quadropolis/..%2Fgame.py",
        "/api/boards/nosuchgame",
    ):
        assert client.get(path).status_code == 404, path
    assert client.get("/api/boards/counting").json() == {}
