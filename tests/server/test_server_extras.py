"""The server runs on the ``server`` extra alone: psycopg, redis and pywebpush (the ``cluster``
and ``push`` extras) are imported only where used, and a feature set up without them stops
the start with one line naming the extra and its install line."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from typing import Any

import pytest

from polis.core.errors import InputError
from polis.server.config import ServerConfig


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Modules to look missing (``importlib.util.find_spec`` finds nothing for them)."""
    hidden: set[str] = set()
    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any, **kwargs: Any) -> Any:
        return None if name in hidden else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    return hidden


def test_a_postgresql_url_needs_the_cluster_extra(without: set[str]) -> None:
    from polis.server.store.games import normalise_url

    assert normalise_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    without.add("psycopg")
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"
    for url in ("postgresql://u:p@h/db", "postgres://h/db", "postgresql+psycopg://h/db"):
        with pytest.raises(InputError) as refused:
            normalise_url(url)
        message = str(refused.value)
        assert "'cluster' extra" in message and "psycopg missing" in message
        assert "pip install -e '.[server,cluster]'" in message and "\n" not in message


def test_redis_needs_the_cluster_extra(without: set[str]) -> None:
    from polis.server.live.bus import RedisBus

    ServerConfig.from_env({"POLIS_REDIS_URL": "redis://127.0.0.1:1/0"})  # installed: fine
    without.add("redis")
    with pytest.raises(InputError, match=r"Redis .* needs the 'cluster' extra .*redis missing"):
        ServerConfig.from_env({"POLIS_REDIS_URL": "redis://127.0.0.1:1/0"})
    with pytest.raises(InputError, match=r"'\.\[server,cluster\]'"):
        RedisBus("redis://127.0.0.1:1/0", "me")
    ServerConfig.from_env({})  # no Redis asked for: nothing needed


@pytest.mark.parametrize("variable", ["POLIS_VAPID_SUBJECT", "POLIS_VAPID_KEY_FILE"])
def test_push_settings_need_the_push_extra(without: set[str], variable: str) -> None:
    value = "mailto:ops@example.org" if variable == "POLIS_VAPID_SUBJECT" else "/tmp/vapid.pem"
    ServerConfig.from_env({variable: value})
    without.add("pywebpush")
    with pytest.raises(InputError, match=r"turn notifications .* 'push' extra .*\[server,push\]"):
        ServerConfig.from_env({variable: value})
    ServerConfig.from_env({})  # pushes merely unavailable: the server starts


def test_the_app_imports_none_of_them() -> None:
    code = (
        "import sys; import polis.server; from polis.server.http.app import create_app; "
        "print(sorted(m for m in ('psycopg', 'redis', 'pywebpush', 'requests') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
