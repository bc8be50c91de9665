"""The command line as a newcomer meets it: --version, -h, completion, help that shows flags
and arguments the way they are typed, and the distribution name on the package index."""

from __future__ import annotations

import itertools
import json
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from polis.cli.common import Group
from polis.cli.main import DISTRIBUTION, app
from polis.core.registry import games

runner = CliRunner()
COMMANDS = ["score", "replay", "play", "simulate", "arena", "serve"]
PYPROJECT = Path(__file__).parents[2] / "pyproject.toml"


def help_text(*args: str) -> str:
    result = runner.invoke(app, [*args], terminal_width=200)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def test_version_is_the_installed_distributions() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"polis {version(DISTRIBUTION)}"


def test_the_distribution_has_a_name_of_its_own() -> None:
    """``polis`` on the package index is another project; the command stays ``polis``."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    assert project["name"] == DISTRIBUTION != "polis"
    assert project["scripts"]["polis"] == "polis.cli.main:app"


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_dash_h_is_help(command: list[str]) -> None:
    assert help_text(*command, "-h") == help_text(*command, "--help")


def test_shell_completion_is_on() -> None:
    text = help_text("--help")
    assert "--install-completion" in text and "--show-completion" in text


@pytest.mark.parametrize("command", COMMANDS)
def test_flags_show_no_value_and_arguments_their_name(command: str) -> None:
    text = help_text(command, "--help")
    assert "<bool>" not in text  # --text <bool> suggested that --text true works
    assert not re.search(r"\{\w+\}", text)  # Usage: polis score [OPTIONS] {file}


def test_usage_names_the_arguments() -> None:
    assert "Usage: polis score [OPTIONS] FILE" in help_text("score", "-h")
    assert "Usage: polis arena [OPTIONS] GAME" in help_text("arena", "-h")


@pytest.mark.parametrize("command", ["arena", "simulate"])
def test_the_mode_default_is_shown(command: str) -> None:
    text = help_text(command, "--help")
    for name, game in games().items():
        if name != "counting":  # the test game registered by conftest
            assert f"{game.default_mode} for {name}" in text


def test_a_missing_argument_is_named_as_in_the_help() -> None:
    result = runner.invoke(app, ["score"])
    assert result.exit_code == 2 and "Missing argument 'FILE'" in result.output


def _description(*args: str) -> list[str]:
    """The prose above the option panels of ``polis *args -h`` in an 80-column terminal."""
    result = runner.invoke(app, [*args, "-h"], env={"COLUMNS": "80", "TERMINAL_WIDTH": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.split("╭")[0].splitlines()
    return [line.rstrip() for line in lines]


@pytest.mark.parametrize("command", [[], *([c] for c in [*COMMANDS, "review"])])
def test_help_is_wrapped_once_not_ragged(command: list[str]) -> None:
    """Issue 43: a docstring's hard line breaks came out as ragged lines (``game with`` then
    ``    the time left``); each line of a paragraph is full up to the next word."""
    lines = _description(*command)
    assert max(len(line) for line in lines) <= 80
    for above, below in itertools.pairwise(lines):
        if above.strip() and below.strip():
            assert not below.startswith("  "), below  # no indented continuation
            room = 80 - 2 - len(above)  # Rich pads the text one column each side
            assert len(below.split()[0]) + 1 > room, (above, below)


def test_no_help_text_holds_a_hard_line_break() -> None:
    group = typer.main.get_command(app)
    assert isinstance(group, Group)
    texts = {"polis": group.help or ""}
    for name, command in group.commands.items():
        texts[name] = command.help or ""
        for param in command.params:
            texts[f"{name} {param.name}"] = getattr(param, "help", None) or ""
    for where, text in texts.items():
        assert all("\n" not in p for p in text.split("\n\n")), where


def test_no_prompt_or_message_of_the_terminal_holds_a_hard_line_break() -> None:
    """Rich wraps what the terminal prints; only the legends are laid out by hand."""
    src = Path(__file__).parents[2] / "src" / "polis" / "games"
    for folder in (src / "i18n", src / "quadropolis/web/i18n", src / "metropolys/web/i18n"):
        for path in folder.glob("*.json"):
            for key, text in json.loads(path.read_text("utf-8")).items():
                if key.startswith("term.") and not key.startswith("term.legend"):
                    assert "\n" not in text, (path.name, key)
