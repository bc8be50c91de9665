"""Every command the README shows works as written: each `polis ...` names a command that
exists with options it has (and, written out in full, parses as given), and each `make ...`
names a target of the Makefile. A renamed option or command fails here, not for a reader."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import typer

from polis.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: Words the README writes in capitals for what the reader fills in.
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_-]*\b|\.\.\.|\[|\]|\|")


def shown(prefix: str) -> list[str]:
    """Every command line beginning with ``prefix``: in ```sh blocks and in `code spans`."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", README, flags=re.S):
        for line in block.splitlines():
            line = line.split("  #", 1)[0].strip()
            if line.startswith(prefix):
                found.append(line)
    for span in re.findall(r"`([^`\n]+)`", README):
        if span.startswith(prefix):
            found.append(span.strip())
    return sorted(set(found))


POLIS = shown("polis ")
MAKE = shown("make ")


def test_the_readme_shows_commands() -> None:
    assert len(POLIS) >= 10 and {"make play", "make test", "make check"} <= set(MAKE)


def resolve(words: list[str]) -> tuple[Any, list[str]]:
    """The (sub)command the words name and the words left for it."""
    command: Any = typer.main.get_command(app)
    while hasattr(command, "get_command") and words and not words[0].startswith("-"):
        sub = command.get_command(command.context_class(command), words[0])
        assert sub is not None, f"no command {words[0]!r}"
        command, words = sub, words[1:]
    return command, words


@pytest.mark.parametrize("line", POLIS)
def test_every_polis_command_in_the_readme_exists_with_its_options(line: str) -> None:
    words = shlex.split(line)[1:]
    command, rest = resolve(words)
    names = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}
    names |= {"--help", "-h"}
    for word in rest:
        if word.startswith("--"):
            assert word.split("=", 1)[0] in names, f"{line}: {command.name} has no {word}"
    eager = {"--help", "-h", "--version", "--install-completion", "--show-completion"}
    if not PLACEHOLDER.search(" ".join(rest)) and not eager & set(rest):
        command.make_context(command.name or "polis", list(rest))  # in full: it parses


@pytest.mark.parametrize("line", MAKE)
def test_every_make_command_in_the_readme_is_a_target(line: str) -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in line.split()[1:]:
        assert re.search(rf"^{re.escape(target)}:", makefile, flags=re.M), line
