"""``polis serve``'s options for a deployment (public address, Redis, bots, proxies, limits)
are checked before the "open http://..." line, each failure one line with exit code 2; good
ones reach the app's configuration."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

import polis.server
from polis.cli.main import app

from .browser_helpers import free_port

runner = CliRunner()


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Stop ``polis serve`` where the server would start; keep what the app was given."""
    seen: dict[str, Any] = {}

    def run(self: Any, sockets: list[socket.socket] | None = None) -> None:
        seen["uvicorn"] = self.config

    def create_app(url: str, **kw: Any) -> object:
        seen.update(kw)
        return object()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    # uvicorn's logging set-up would bind its handlers to the runner's stderr, closed once the
    # command returns (every later test's logging would fail)
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    monkeypatch.setattr(polis.server, "create_app", create_app)
    return seen


def serve(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    db = f"sqlite:///{tmp_path / 'o.db'}"
    return runner.invoke(app, ["serve", "--port", str(free_port()), "--db", db, *args], env=env)


def refused(result: Any) -> str:
    assert result.exit_code == 2, (result.output, result.exception)
    assert "open http" not in result.output and "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return str(lines[0])


@pytest.mark.parametrize(
    ("args", "env", "words"),
    [
        (["--redis", "redis://127.0.0.1:1/0"], None, "cannot reach Redis"),
        (["--redis", "http://x"], None, "must start with redis://"),
        (["--public-url", "polis.example.org"], None, "must start with http"),
        (["--bots", "threads"], None, "'process' or 'ray'"),
        ([], {"POLIS_LIMITS": "message_rate=lots"}, "bad value for limit message_rate"),
        ([], {"POLIS_LIMITS": "speed=1"}, "unknown limit 'speed'"),
        ([], {"POLIS_BOT_WORKERS": "two"}, "POLIS_BOT_WORKERS"),
    ],
)
def test_bad_deployment_settings_are_one_line(
    tmp_path: Path, started: dict[str, Any], args: list[str], env: Any, words: str
) -> None:
    assert words in refused(serve(tmp_path, *args, env=env))


def test_good_settings_reach_the_app(tmp_path: Path, started: dict[str, Any]) -> None:
    result = serve(
        tmp_path,
        "--public-url",
        "https://polis.example.org",
        "--bot-workers",
        "3",
        "--trusted-proxy",
        "10.0.0.0/8",
        env={"POLIS_LIMITS": "spectators_per_game=7"},
    )
    assert result.exit_code == 0, result.output
    config = started["config"]
    assert config.public_url == "https://polis.example.org" and config.bot_workers == 3
    assert config.trusted_proxies == ("10.0.0.0/8",) and config.limits.spectators_per_game == 7
    assert config.tune_gc  # a server process of its own
    server = started["uvicorn"]
    assert server.proxy_headers is False  # the app reads X-Forwarded-* from trusted proxies
    assert server.ws_per_message_deflate is False
