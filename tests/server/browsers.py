"""Another person's browser on a test's server: its own cookies, the server's one event loop.

A second ``TestClient`` on the same app, not entered, would run each request and WebSocket in
an event loop of its own that closes when the request or socket ends, cancelling whatever the
server began there (settling a finished game, a bot's turn). Sharing the entered client's
portal runs everything on the server's loop, as one server process does."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

PASSWORD = "correct horse battery"


def another_browser(client: TestClient) -> TestClient:
    """A client with cookies of its own on ``client``'s app and event loop (``client`` must be
    entered: it started the app)."""
    assert client.portal is not None, "enter the test's client first (it starts the app)"
    other = TestClient(client.app)
    other.portal = client.portal
    return other


class Browser:
    """A person signed up as ``name`` in a browser of their own."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client = another_browser(client)
        self.name = name
        r = self.client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 200, r.text
        self.csrf = {"X-CSRF-Token": self.client.get("/api/account").json()["csrf"]}

    def post(self, path: str, body: Any = None, csrf: bool = True) -> Any:
        return self.client.post(path, json=body, headers=self.csrf if csrf else {})

    def get(self, path: str) -> Any:
        return self.client.get(path)
