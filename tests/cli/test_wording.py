"""One wording source for every screen: the catalogues in ICU MessageFormat, read alike by the
terminal (Python: pyicumessageformat + Babel) and the browser (intl-messageformat).

Every catalogue parses in every language with the arguments English has; a whole seeded game
of each game is told in every language with no missing key and no leftover brace; plural
forms come out right (Polish one/few/many too); and Node, given the same messages and sample
events, formats them to the text Python gave (tests/js/wording.test.mjs).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from polis.cli.play import TerminalGame, hint_text
from polis.core import get_game
from polis.core.events import Event
from polis.core.wording import (
    LANGUAGES,
    Words,
    arguments,
    format_message,
    names_list,
    parse,
    pick_language,
    plural_form,
)
from polis.games.metropolys import render as metro_render
from polis.games.quadropolis import render as quadro_render
from polis.games.quadropolis.site import SPOT_NAMES

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "polis"
#: Every catalogue folder, each holding <lang>.json for every language.
FOLDERS = [
    SRC / "games" / "i18n",
    SRC / "games" / "quadropolis" / "web" / "i18n",
    SRC / "games" / "metropolys" / "web" / "i18n",
    SRC / "server" / "static" / "i18n",
]
RENDERS = {"quadropolis": quadro_render, "metropolys": metro_render}
SETTINGS = [
    ("quadropolis", "classic", 2),
    ("quadropolis", "expert", 4),
    ("metropolys", "family", 2),
    ("metropolys", "expert", 3),
]


def catalogue(folder: Path, lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((folder / f"{lang}.json").read_text("utf-8"))
    return data


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: str(f.relative_to(SRC)))
def test_every_message_parses_with_the_arguments_english_has(folder: Path) -> None:
    english = catalogue(folder, "en")
    for lang in LANGUAGES:
        words = catalogue(folder, lang)
        assert set(words) == set(english), f"{lang}: keys differ from en"
        # the same arguments; a language may need a plural or select where another does not
        wrong = [
            f"{lang} {key}: {sorted(arguments(text))} (en {sorted(arguments(english[key]))})"
            for key, text in words.items()
            if set(arguments(text)) != set(arguments(english[key]))
        ]
        assert not wrong, "\n".join(wrong)


class Recorder:
    """Records every key the terminal asks a catalogue for, and the keys none has."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.used: set[str] = set()
        self.missing: set[str] = set()
        original = Words.message

        def message(words: Words, key: str) -> str | None:
            found = original(words, key)
            self.used.add(key)
            if found is None:
                self.missing.add(key)
            return found

        monkeypatch.setattr(Words, "message", message)


def play(name: str, mode: str, players: int, lang: str, tmp_path: Path, answers: list[str]) -> str:
    """A whole game in an 80x24 terminal, the person answering at random after ``answers``;
    returns the screen's text and checks that a board and its prompt fit on one screen."""
    game = get_game(name)
    state = game.new_game(mode, players, seed=7)
    console = Console(record=True, width=80, height=24, force_terminal=False)
    rng = random.Random(3)
    todo = list(answers)
    seen, between = 0, []

    def ask(prompt: str) -> str:
        nonlocal seen
        assert len(prompt) <= 80, prompt
        lines = console.export_text(clear=False).splitlines()
        heads = [i for i, line in enumerate(lines) if line.startswith(game.title + " ")]
        if heads and heads[-1] >= seen:
            between.append(len(lines) - heads[-1] + 1)
        seen = len(lines)
        return todo.pop(0) if todo else str(rng.choice(list(session.state.legal_moves())))

    names = ["you", *("bot:random" for _ in range(players - 1))]
    session = TerminalGame(
        game, state, 0, names, 7, tmp_path / "g.json", ask, console, bot="random", lang=lang
    )
    assert session.run() is True
    assert between and max(between) <= 24, between
    return console.export_text()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("name", "mode", "players"), SETTINGS)
def test_a_whole_game_is_told_in_every_language(
    name: str,
    mode: str,
    players: int,
    lang: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorder = Recorder(monkeypatch)
    answers = ["", "help", "moves", "legend", "3@99", "board"]
    text = play(name, mode, players, lang, tmp_path, answers)
    assert not recorder.missing, sorted(recorder.missing)
    assert "{" not in text and "}" not in text
    too_wide = [line for line in text.splitlines() if len(line) > 80]
    assert not too_wide, too_wide[:3]
    say = RENDERS[name].wording(lang)
    assert say("term.pad.total") in text and say("term.commands", example="").split()[0] in text
    if lang != "en":  # told in the language, not in English
        english = RENDERS[name].wording("en")
        assert english("term.pad.total") not in text.splitlines()[-4]
        assert "Type a move" not in text and "to move" not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_legend_line_fits_80_columns(lang: str) -> None:
    """Every sign explained (tests/cli/test_terminal_legend.py) in two thirds of a screen."""
    for render in RENDERS.values():
        lines = render.legend(lang).splitlines()
        assert len(lines) <= 16 and all(len(line) <= 80 for line in lines), lines


def test_plural_forms_follow_each_language() -> None:
    site = {lang: quadro_render.wording(lang).message("event.site_revealed") for lang in LANGUAGES}
    told = {
        (lang, n): format_message(text or "", {"round": 2, "n": n}, lang)
        for lang, text in site.items()
        for n in (1, 2, 5, 22, 25)
    }
    assert told["en", 1].endswith("1 building face up.")
    assert told["en", 5].endswith("5 buildings face up.")
    assert told["pl", 1].endswith("1 budynek odkryty.")
    assert told["pl", 2].endswith("2 budynki odkryte.")
    assert told["pl", 5].endswith("5 budynków odkrytych.")
    assert told["pl", 22].endswith("22 budynki odkryte.")
    assert told["pl", 25].endswith("25 budynków odkrytych.")
    assert told["it", 1].endswith("1 edificio scoperto.")
    assert told["it", 2].endswith("2 edifici scoperti.")
    assert [plural_form("pl", n) for n in (1, 2, 5, 12, 22)] == ["one", "few", "many"] * 1 + [
        "many",
        "few",
    ]
    floors = quadro_render.wording("de")
    assert floors("floors", n=1) == "1 Etage" and floors("floors", n=3) == "3 Etagen"


def bid_won(returned: list[tuple[int, int]]) -> Event:
    back = [{"player": p, "value": v, "field": 3} for p, v in returned]
    params = {"player": 0, "value": 9, "field": 4, "reason": "all_passed", "returned": back}
    return Event("bid_won", params)


@pytest.mark.parametrize(
    ("lang", "one_bid", "two_bids", "two_people"),
    [
        ("en", "B takes back their other bid.", "B takes back their other bids.", "B and C take"),
        ("de", "B nimmt das andere Gebot zurück.", "B nimmt die anderen Gebote", "B und C nehmen"),
        ("pl", "B odbiera pozostałą ofertę.", "B odbiera pozostałe oferty.", "B i C odbierają"),
        ("it", "B riprende l'altra offerta.", "B riprende le altre offerte.", "B e C riprendono"),
    ],
)
def test_bids_taken_back_agree_with_how_many_people_and_bids(
    lang: str, one_bid: str, two_bids: str, two_people: str
) -> None:
    """The audit's "Bot 2 (easy) take back their other bids": the verb follows the people."""
    names = ["A", "B", "C"]
    assert metro_render.narrate(bid_won([(1, 5)]), names, lang) is not None
    say = metro_render.wording(lang)

    def told(returned: list[tuple[int, int]]) -> str:
        return " ".join(say(k, p) for k, p in metro_render.messages(bid_won(returned), names, say))

    assert told([(1, 5)]).endswith(one_bid)
    assert two_bids in told([(1, 5), (1, 7)])
    assert two_people in told([(1, 5), (2, 7)])


def test_a_number_takes_the_article_its_sound_needs() -> None:
    """``select`` on the value: an 8, an 11 (English); l'8, l'11 (Italian)."""
    en, it = metro_render.wording("en"), metro_render.wording("it")
    assert en("event.bid_placed", name="A", value=8, field=3) == "A places an 8 on neighborhood 3."
    assert en("event.bid_placed", name="A", value=7, field=3) == "A places a 7 on neighborhood 3."
    won = {"name": "A", "field": 3, "reason": "r"}
    assert it("event.bid_won", won, value=11).startswith("A vince la gara con l'11 sul")
    assert it("event.bid_won", won, value=12).startswith("A vince la gara con il 12 sul")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_confirmed_move_names_its_verb_once(lang: str) -> None:
    """The audit's "takes the takes the": the label's ``what`` already holds the verb."""
    say = quadro_render.wording(lang)
    what = say("takes", what=say("type.harbor"), square=say("square", row=2, col=1))
    label = say("label.build", k=3, where=say("spot.L", n=4), what=what, square="x")
    verb = what.split()[0]
    assert label.split().count(verb) == 1, label


def test_the_language_comes_from_the_option_the_environment_or_the_locale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for var in ("POLIS_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    assert pick_language() == "en"
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    assert pick_language() == "pl"
    monkeypatch.setenv("POLIS_LANG", "it")
    assert pick_language() == "it" and pick_language("DE") == "de"
    with pytest.raises(ValueError, match="choose one of en, de, pl, it"):
        pick_language("fr")


def test_a_hint_is_worded_in_the_language() -> None:
    from polis.bots.advice import Advice, Estimate

    game = get_game("metropolys")
    first, second = game.parse_move("7@12", "family"), game.parse_move("pass", "family")
    estimates = (Estimate(first, 0.62, 19.4, 3.0, 40), Estimate(second, 0.2, 12.0, -4.0, 40))
    advice = Advice(player=0, best=first, estimates=estimates)
    assert hint_text(advice).startswith("Hint: 7@12. It wins 62% of 40 games")
    german = hint_text(advice, metro_render.wording("de"))
    assert german.startswith("Tipp: 7@12. Er gewinnt 62 % von 40 Partien") and "+42 %" in german


# -- the browser formats the same messages to the same text ----------------------------------


def samples(text: str) -> Iterator[dict[str, Any]]:
    """Argument values that visit every branch of ``text``: each plural count, each select
    option, a word for every simple argument."""
    found = arguments(text)
    plain = {name: f"<{name}>" for name, kind in found.items() if kind in ("", None)}
    numbers = [n for n, k in found.items() if k in ("plural", "selectordinal", "number")]
    selects = {n: options for n, options in select_options(parse(text)).items()}
    counts = (0, 1, 2, 3, 5, 11, 12, 21, 22, 25, 101, 1000) if numbers else (0,)
    for i, n in enumerate(counts):
        values: dict[str, Any] = {**plain, **dict.fromkeys(numbers, n)}
        for name, options in selects.items():
            values[name] = options[i % len(options)]
        yield values


def select_options(nodes: Any) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for node in nodes:
        if isinstance(node, dict):
            if node.get("type") == "select":
                out[node["name"]] = [*node["options"], "elsewhere"]
            for sub in node.get("options", {}).values():
                out.update(select_options(sub))
    return out


def sample_events() -> list[tuple[str, list[str], Event]]:
    """Every kind of event from seeded games of both games, and the cases the audit named."""
    chosen: list[tuple[str, list[str], Event]] = []
    for name, mode, players in SETTINGS:
        game = get_game(name)
        state = game.new_game(mode, players, seed=5)
        names = ["Ada", "Bot 2 (easy)", "Cy", "Dora"][:players]
        rng = random.Random(1)
        events = list(state.opening_events())
        while not state.is_terminal():
            events += state.play(rng.choice(list(state.legal_moves())))
        seen: dict[str, int] = {}
        for event in events:
            if seen.get(event.key, 0) < 3:
                seen[event.key] = seen.get(event.key, 0) + 1
                chosen.append((name, names, event))
    names = ["Ada", "Bot 2 (easy)", "Cy"]
    chosen += [("metropolys", names, bid_won(r)) for r in ([(1, 5)], [(1, 5), (1, 8)])]
    chosen.append(("metropolys", names, bid_won([(1, 5), (2, 7), (1, 8)])))
    chosen.append(
        (
            "metropolys",
            names,
            Event("card_changed_hands", {"card": "metro", "player": 1, "from": 2}),
        )
    )
    ended = {"scores": [1, 1, 0], "ranking": [[0, 1], [2]]}
    chosen += [("quadropolis", names, Event("game_ended", ended))]
    chosen += [("metropolys", names, Event("game_ended", {**ended, "cards": []}))]
    return chosen


def fixture() -> dict[str, Any]:
    messages = []
    for folder in FOLDERS:
        for lang in LANGUAGES:
            for text in catalogue(folder, lang).values():
                if "{" in text or "'" in text:
                    for params in samples(text):
                        expected = format_message(text, params, lang)
                        messages.append(
                            {"lang": lang, "text": text, "params": params, "expected": expected}
                        )
    lists = [
        {"lang": lang, "names": names, "expected": names_list(names, lang)}
        for lang in LANGUAGES
        for names in (["Ada"], ["Ada", "Bob"], ["Ada", "Bob", "Cy"])
    ]
    events = []
    view = {"spots": [{"spot": s} for s in SPOT_NAMES]}
    for name, names, event in sample_events():
        for lang in LANGUAGES:
            say = RENDERS[name].wording(lang)
            told = " ".join(say(k, p) for k, p in RENDERS[name].messages(event, names, say))
            events.append(
                {
                    "game": name,
                    "lang": lang,
                    "names": names,
                    "view": view,
                    "event": event.to_json(),
                    "expected": told,
                }
            )
    return {"messages": messages, "lists": lists, "events": events}


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_browser_words_everything_as_the_terminal_does(tmp_path: Path) -> None:
    path = tmp_path / "wording.json"
    path.write_text(json.dumps(fixture(), ensure_ascii=False), encoding="utf-8")
    run = subprocess.run(
        ["node", "--import", "./tests/js/register.mjs", "--test", "tests/js"],
        cwd=ROOT,
        env={**os.environ, "POLIS_WORDING_FIXTURE": str(path)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    # the three tests of wording.test.mjs ran (none skipped for want of the fixture), beside
    # the other tests of tests/js
    passed = re.search(r"^# pass (\d+)$", run.stdout, re.MULTILINE)
    assert passed and int(passed.group(1)) >= 3 and "# skipped 0" in run.stdout, run.stdout[-2000:]
