"""``polis serve`` checks the port and the database before it says where to connect: each
failure is one line on stderr and exit code 2, never a SQLAlchemy traceback."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
import uvicorn
from typer.testing import CliRunner

import polis.server
from polis.cli.main import app
from waiting import eventually

pytest.importorskip("sqlalchemy")
runner = CliRunner()


class Started:
    """What the stubbed server was given (nothing listens; the socket is checked)."""

    addresses: ClassVar[list[Any]] = []


@pytest.fixture(autouse=True)
def no_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Run ``polis serve`` up to the point where the server would start, and no further."""

    def run(self: Any, sockets: list[socket.socket] | None = None) -> None:
        self.started = True
        Started.addresses = [s.getsockname() for s in sockets or []]

    monkeypatch.setattr(uvicorn.Server, "run", run)
    # uvicorn's logging set-up would bind its handlers to the runner's captured stderr, which
    # is closed once the command returns: every later test's logging would then fail.
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    monkeypatch.setattr(polis.server, "create_app", lambda url, **kw: object())
    Started.addresses = []
    yield


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(*args: str) -> Any:
    return runner.invoke(app, ["serve", *args])


def refused(result: Any) -> str:
    assert result.exit_code == 2, (result.output, result.exception)
    assert "open http" not in result.output
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return str(lines[0])


@pytest.mark.parametrize("port", ["99999", "0", "-1"])
def test_a_port_out_of_range_is_refused_before_the_open_line(port: str) -> None:
    assert "1 to 65535" in refused(serve("--port", port))


def test_a_port_in_use_is_refused_before_the_open_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        message = refused(serve("--port", port, "--db", f"sqlite:///{tmp_path / 'p.db'}"))
    assert f"port {port}" in message and "in use" in message


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("not a url", "is not a database URL"),
        ("mysql://x", "SQLite or PostgreSQL, not 'mysql'"),
        ("sqlite:////no/such/folder/polis.db", "the folder /no/such/folder does not exist"),
        ("postgresql://polis:secret@127.0.0.1:1/polis", "cannot open the database"),
    ],
)
def test_a_bad_database_url_is_one_line(url: str, words: str) -> None:
    message = refused(serve("--port", str(free_port()), "--db", url))
    assert words in message
    assert "secret" not in message


@pytest.mark.cluster  # a PostgreSQL server (POLIS_TEST_PG_URL)
def test_a_wrong_password_is_one_line() -> None:
    url = os.environ.get("POLIS_TEST_PG_URL")
    if not url:
        pytest.skip("needs a PostgreSQL server: set POLIS_TEST_PG_URL (make test-pg)")
    from sqlalchemy import make_url

    wrong = make_url(url).set(password="not-the-password").render_as_string(hide_password=False)
    message = refused(serve("--port", str(free_port()), "--db", wrong))
    assert "password" in message and "not-the-password" not in message


def test_a_good_start_says_which_database_and_where_to_connect(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "polis.db"
    result = serve("--port", str(port), "--db", f"sqlite:///{db}")
    assert result.exit_code == 0, result.output
    assert f"games are kept in sqlite:///{db}" in result.output
    assert f"open http://127.0.0.1:{port}/" in result.output
    assert Started.addresses == [("127.0.0.1", port)]  # the socket that was checked
    assert db.exists()


@pytest.mark.cluster  # a PostgreSQL server (POLIS_TEST_PG_URL)
def test_the_password_is_hidden() -> None:
    url = os.environ.get("POLIS_TEST_PG_URL")
    if not url:
        pytest.skip("needs a PostgreSQL server: set POLIS_TEST_PG_URL (make test-pg)")
    result = serve("--port", str(free_port()), "--db", url)
    assert result.exit_code == 0, result.output
    assert "***" in result.output
    from sqlalchemy import make_url

    password = make_url(url).password
    assert f":{password}@" not in result.output


def test_open_starts_the_browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", opened.append)
    port = free_port()
    result = serve("--port", str(port), "--db", f"sqlite:///{tmp_path / 'o.db'}", "--open")
    assert result.exit_code == 0, result.output
    eventually(lambda: opened, "no browser was opened", timeout=10)
    assert opened == [f"http://127.0.0.1:{port}/"]


def test_a_database_that_cannot_be_written_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy.exc import OperationalError

    def read_only(url: str, **kw: Any) -> object:
        raise OperationalError(
            "CREATE TABLE", {}, Exception("attempt to write a readonly database")
        )

    monkeypatch.setattr(polis.server, "create_app", read_only)
    message = refused(serve("--port", str(free_port()), "--db", f"sqlite:///{tmp_path / 'r.db'}"))
    assert "cannot use the database" in message and "readonly" in message
