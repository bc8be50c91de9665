"""``polis arena``'s results table as issue 43 found it: cut to "rand…", "marg…", "CI)" at 80
columns. It fits 80 columns (``--wide``: every column) and is plain text (no box drawing, no
colour) off a terminal or with ``NO_COLOR``."""

from __future__ import annotations

import re

from typer.testing import CliRunner, Result

from polis.cli.main import app

TOY = "toygame:GAME"
runner = CliRunner()
LONG = ["--agents", "random,greedy,montecarlo:5i", "--players", "3", "--games", "3"]
BOX = set("┏┓┗┛━┃│─┡┩╇┳┻┼└┘┴┬")


def arena(*args: str, env: dict[str, str] | None = None) -> Result:
    return runner.invoke(app, ["arena", TOY, "--mode", "basic", *args], env=env)


def table_lines(result: Result) -> list[str]:
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout.splitlines()


def test_the_table_fits_80_columns_and_is_plain_off_a_terminal() -> None:
    lines = table_lines(arena(*LONG))
    text = "\n".join(lines)
    assert max(len(line) for line in lines) <= 80, text
    assert not BOX & set(text) and "\x1b" not in text and "…" not in text
    assert "montecarlo:5i" in text and "win share (95% CI)" in text and "rating" in text
    assert (
        lines[0].startswith("counting basic, 3 players, 3 games") and lines[0] == lines[0].rstrip()
    )


def test_wide_shows_every_column() -> None:
    text = "\n".join(table_lines(arena(*LONG, "--wide")))
    for head in ("wins", "mean rank (95% CI)", "margin", "s/move", "iter/s", "iter/move"):
        assert head in text
    assert "…" not in text


def test_on_a_terminal_the_table_is_drawn_within_80_columns_unless_no_color() -> None:
    terminal = {"FORCE_COLOR": "1", "COLUMNS": "80", "NO_COLOR": ""}
    drawn = arena(*LONG, env=terminal)
    lines = table_lines(drawn)
    assert BOX & set(drawn.stdout) and "montecarlo:5i" in drawn.stdout
    assert "…" not in drawn.stdout
    ansi = re.compile(r"\x1b\[[0-9;]*m")
    assert max(len(ansi.sub("", line)) for line in lines) <= 80
    plain = arena(*LONG, env=terminal | {"NO_COLOR": "1"})
    assert not BOX & set("\n".join(table_lines(plain)))
