"""The terminal's ``legend`` explains every sign the boards draw (issue 43: it never
explained S, H, P, O, M, the Expert ``Pool: #1 x3`` line, ``H2e`` or ``@##``).

The signs are taken from boards the renderer draws over whole games of every mode and player
count in every language, not from a list: a new sign without a legend entry fails here. A
sign is what a board shows that is not a word: every run of one or two letters, every run of
a repeated symbol (``##``, ``--``, ``*``, ``@``), numbers aside; the players' names and the
heading (all words) are left out. The legend's entries are ``sign = meaning``, separated by
``;``; a sign is explained when the signs of some entry hold it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from polis.cli.play import TerminalGame
from polis.core import get_game
from polis.core.wording import LANGUAGES
from polis.games.metropolys import render as metro_render
from polis.games.quadropolis import render as quadro_render
from polis.games.text import LETTERS

RENDERS = {"quadropolis": quadro_render, "metropolys": metro_render}
NAMES = ["Anna", "Bert", "Cleo", "Dora"]
TABLES = [
    (game, mode, players)
    for game, modes in (
        ("quadropolis", ("classic", "expert")),
        ("metropolys", ("family", "expert")),
    )
    for mode in modes
    for players in (2, 3, 4)
]
#: Punctuation of the words around the signs (``Scores: A 12, B 41``, ``B (Bert)``,
#: ``Karte „U-Bahn“``).
PROSE = ",:;()„“”\"'«»"


def atoms(token: str, game: str) -> Iterator[str]:
    """The signs in one whitespace-separated piece of a board or of a legend entry."""
    token = token.strip(PROSE)
    if re.fullmatch(r"[^\W\d_]+(?:-[^\W\d_]+)+", token):  # a word with a hyphen: "U-Bahn"
        return
    if re.search(r"[^\W\d_]{2,}\.$", token):  # an abbreviation's dot: "Burm.", "zbud."
        token = token[:-1]
    if game == "metropolys":  # a bid: seat letter in lower case, then the value
        token = re.sub(r"[a-d](?=\d)", "b", token)
    for found in re.finditer(r"[^\W\d_]+|([^\w\s])\1*", token):
        atom = found.group(0).strip(PROSE)
        if atom and not (atom.isalpha() and len(atom) >= 3):  # a word, not a sign
            yield atom


def board_signs(board: str, game: str, lang: str) -> set[str]:
    """The signs of a board: the heading (the game, the round, who is to move) and the line
    of the viewer's secret objectives (a sentence of the catalogue) left out."""
    prose = RENDERS[game].wording(lang).message("yourCards") or "\0"
    lines = [line for line in board.splitlines()[1:] if not line.startswith(prose)]
    out: set[str] = set()
    for line in lines:
        for name in NAMES:
            line = line.replace(name, " ")
        for token in line.split():
            out.update(atoms(token, game))
    return out


def legend_signs(legend: str, game: str) -> set[str]:
    """The signs of the legend's entries (the text before `` = `` of each)."""
    logical: list[str] = []
    for line in legend.splitlines():
        if line.startswith("  ") and logical:
            logical[-1] += " " + line.strip()
        else:
            logical.append(line)
    out: set[str] = set()
    for line in logical:
        for entry in line.split("; "):
            if " = " not in entry:
                continue
            signs = entry.split(" = ")[0]
            signs = re.sub(r"^[^\W\d_][^\W\d_]*(?: [^\W\d_]+)*: ", "", signs)  # "Site: "
            for token in signs.split():
                out.update(atoms(token, game))
    return out


def boards(game: str, mode: str, players: int, lang: str, seed: int) -> Iterator[str]:
    """Every board of a seeded random game, as the first seat and everybody see it."""
    engine = get_game(game)
    render = RENDERS[game]
    state = engine.new_game(mode, players, seed=seed)
    rng = random.Random(seed)
    names = NAMES[:players]
    while True:
        yield render.board(state.view(0), names, 80, lang)
        if state.is_terminal():
            yield render.board(state.view(None), names, 80, lang)
            return
        state.apply(rng.choice(list(state.legal_moves())))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(RENDERS))
def test_the_legend_explains_every_sign_the_boards_draw(game: str, lang: str) -> None:
    drawn: dict[str, str] = {}
    for name, mode, players in TABLES:
        if name == game:
            for seed in (1,):
                for board in boards(game, mode, players, lang, seed):
                    for sign in board_signs(board, game, lang) - drawn.keys():
                        drawn[sign] = board
    explained = legend_signs(RENDERS[game].legend(lang), game)
    missing = {sign: board for sign, board in drawn.items() if sign not in explained}
    assert not missing, (sorted(missing), next(iter(missing.values())))
    if game == "quadropolis":  # the signs issue 43 named are drawn, and explained
        assert {"S", "H", "P", "O", "M", "#", "x", "i", "e", "@", "##"} <= drawn.keys()
    assert set(LETTERS) <= explained


def test_the_test_sees_a_sign_the_legend_lacks() -> None:
    """A legend without its Urbanist entries leaves ``@`` unexplained."""
    legend = quadro_render.legend("en").replace("@ = the Urbanist;", "")
    assert "@" not in legend_signs(legend.replace("@## =", "x ="), "quadropolis")
    assert "@" in board_signs("heading\n L1 @##    .", "quadropolis", "en")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(RENDERS))
def test_legend_in_an_80x24_terminal(game: str, lang: str, tmp_path: Path) -> None:
    """Typed at the prompt, the legend fits the screen: at most 80 columns, and with the
    prompt at most 24 lines."""
    engine = get_game(game)
    state = engine.new_game(engine.default_mode, 2, seed=3)
    console = Console(record=True, width=80, height=24, force_terminal=False)
    answers = ["legend", "quit"]
    session = TerminalGame(
        engine, state, state.current_player(), ["Anna", "bot:random"], 3, None,
        lambda prompt: answers.pop(0), console, bot="random", lang=lang,
    )  # fmt: skip
    assert session.run() is False
    text = console.export_text()
    legend = RENDERS[game].legend(lang)
    assert text.count(legend) == 2  # at the start, and when asked
    lines = legend.splitlines()
    assert max(len(line) for line in lines) <= 80 and len(lines) + 1 <= 24, lines


def test_the_urbanist_shifts_no_column_of_the_site() -> None:
    """Issue 43: ``@##`` (the Urbanist on a face-down building) shifted its row's columns.
    Every sign of the site starts in its square's column; ``@`` stands in the column before,
    and the spots above and below stand over the signs."""
    seen_on_face_down = False
    for players in (2, 3):
        state = get_game("quadropolis").new_game("classic", players, seed=4)
        rng = random.Random(4)
        while not state.is_terminal():
            lines = quadro_render.site_lines(state.view(0))
            for line in (lines[0], lines[-1]):
                assert [line[5 + 6 * c] for c in range(5)] != [" "] * 5, line
                assert all(line[4 + 6 * c] == " " for c in range(5)), line
            for line in lines[1:-1]:
                cells = [line[4 + 6 * c : 10 + 6 * c] for c in range(5)]
                for cell in cells:
                    assert cell[0] in " @" and (cell[1] != " " or cell == "@     "), line
                    assert " " not in cell[1:].rstrip(), line
                seen_on_face_down |= "@##" in line
            state.apply(rng.choice(list(state.legal_moves())))
    assert seen_on_face_down
