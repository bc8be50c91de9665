"""The terminal game as a newcomer meets it: whole games in an 80x24 terminal, told in words."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from rich.console import Console

from polis.cli.play import TerminalGame
from polis.core import get_game

SETTINGS = [
    ("quadropolis", "classic", 3),
    ("quadropolis", "expert", 4),
    ("metropolys", "expert", 3),
]


class Screen:
    """An 80x24 terminal that answers the prompts, remembering what was on screen."""

    def __init__(self, answers: list[str] | None = None, seed: int = 1) -> None:
        self.console = Console(record=True, width=80, height=24, force_terminal=False)
        self.rng = random.Random(seed)
        self.answers = list(answers or [])
        self.between: list[int] = []  # lines of each board drawn, with its prompt
        self.game: TerminalGame | None = None
        self._seen = 0

    def ask(self, prompt: str) -> str:
        lines = self.console.export_text(clear=False).splitlines()
        heads = [i for i, line in enumerate(lines) if line.endswith("to move")]
        if heads and heads[-1] >= self._seen:  # a board was drawn since the last prompt
            self.between.append(len(lines) - heads[-1] + 1)
        self._seen = len(lines)
        assert len(prompt) <= 80, prompt
        if self.answers:
            return self.answers.pop(0)
        assert self.game is not None
        return str(self.rng.choice(list(self.game.state.legal_moves())))


def play(name: str, mode: str, players: int, tmp_path: Path, answers: list[str]) -> Screen:
    game = get_game(name)
    state = game.new_game(mode, players, seed=21)
    screen = Screen(answers)
    names = ["you", *("bot:random" for _ in range(players - 1))]
    session = TerminalGame(
        game, state, 0, names, 21, tmp_path / "g.json", screen.ask, screen.console, bot="random"
    )
    screen.game = session
    assert session.run() is True
    return screen


@pytest.mark.parametrize(("name", "mode", "players"), SETTINGS)
def test_a_whole_game_fits_an_80x24_terminal(
    name: str, mode: str, players: int, tmp_path: Path
) -> None:
    screen = play(name, mode, players, tmp_path, ["", "moves", "help"])
    text = screen.console.export_text()
    too_wide = [line for line in text.splitlines() if len(line) > 80]
    assert not too_wide, too_wide[:3]
    # The board and the prompt under it always fit on one screen.
    assert screen.between and max(screen.between) <= 24, screen.between
    assert "Not allowed" not in text  # the empty line was ignored, not refused
    assert "Commands:" in text and "Winner:" in text
    record = json.loads((tmp_path / "g.json").read_text())
    assert "result" in record


def test_quadropolis_board_labels_match_the_notation(tmp_path: Path) -> None:
    screen = play("quadropolis", "classic", 3, tmp_path, [])
    text = screen.console.export_text()
    for label in ("L1", "R5", "T3", "B2", "r1 ", "c4"):
        assert label in text
    assert "Round 2 begins; " in text and "Round 4 is over." in text
    assert "places Architect #" in text and "builds the " in text  # told from the catalogue
    assert "C (bot random) places" in text and "B (bot random)" in text  # bots named by seat
    assert "A (you) builds" in text and "A you " not in text  # issue 43: "A you builds"
    assert "H+1i+1e" not in text  # the old cell that broke the grid


def test_metropolys_board_shows_tokens_and_tells_who_won_each_round(tmp_path: Path) -> None:
    screen = play("metropolys", "family", 2, tmp_path, [])
    text = screen.console.export_text()
    assert "wins the call with the" in text
    assert "* = Trendy neighborhood (+3)" in text  # the legend explains the token signs
    first_board = text[text.index("CENTER") : text.index("Your secret objectives:")]
    assert "*" in first_board  # tokens are drawn, not swallowed as markup
    assert "The game is over: " in text and "Secret objectives: A" in text


def test_moves_lists_compactly_and_narrows_on_request(tmp_path: Path) -> None:
    game = get_game("quadropolis")
    state = game.new_game("expert", 4, seed=2)
    answers = ["moves", "moves 1L1", "quit"]
    screen = Screen(answers)
    session = TerminalGame(
        game,
        state,
        state.current_player(),
        ["you", "bot:random", "bot:random", "bot:random"],
        2,
        None,
        screen.ask,
        screen.console,
    )
    assert session.run() is False
    lines = screen.console.export_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("1  L "))
    end = next(i for i, line in enumerate(lines) if line.startswith("Type 'moves 3L4'"))
    assert end - start < 12 < len(state.legal_moves()) / 10  # compact: far fewer lines
    narrowed = lines[end + 1].split()
    wanted = [m.text.split()[1] for m in state.legal_moves() if m.text.startswith("1L1 ")]
    assert narrowed == ["1L1:", *wanted]


def test_hint_in_the_terminal_names_a_legal_move_and_what_it_gains(tmp_path: Path) -> None:
    screen = play("metropolys", "family", 2, tmp_path, ["hint"])
    text = screen.console.export_text()
    found = re.search(r"Hint: (\S+)\. It wins (\d+)% of \d+ games", text)
    assert found, text[-2000:]
    game = get_game("metropolys")
    first = game.new_game("family", 2, seed=21)
    assert game.parse_move(found.group(1), "family") in first.legal_moves()
    assert "against the next best move" in text or "about as good as" in text
