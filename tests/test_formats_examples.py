"""docs/formats.md's examples are real: each input `polis score` takes, run through it, prints
the report the next section shows, word for word as JSON (the contract users copy from)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from polis.cli.main import app

FORMATS = Path(__file__).resolve().parents[1] / "docs" / "formats.md"

#: The sections holding an input of `polis score` and the sections holding its report.
PAIRS = [("1.2", "1.3"), ("2.2", "2.3")]


def example(section: str) -> Any:
    """The first JSON block of the section ``### <section> ...`` of formats.md."""
    text = FORMATS.read_text(encoding="utf-8")
    found = re.search(rf"^### {re.escape(section)} .*?^```json\n(.*?)^```", text, re.S | re.M)
    assert found, f"formats.md has no JSON example in section {section}"
    return json.loads(found.group(1))


@pytest.mark.parametrize(("given", "shown"), PAIRS)
def test_each_example_report_is_the_output_of_its_example_input(
    tmp_path: Path, given: str, shown: str
) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(example(given)))
    result = CliRunner().invoke(app, ["score", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == example(shown)


def test_the_reports_say_whose_input_they_are() -> None:
    text = FORMATS.read_text(encoding="utf-8")
    for given, _shown in PAIRS:
        assert re.search(rf"\(This is the report for the \w[\w ]* of {re.escape(given)}\b", text)
