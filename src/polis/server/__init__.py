"""The web app: FastAPI server, game store, seats, live rooms, bot seats and the browser client."""

from __future__ import annotations

from polis.server.http.app import create_app

__all__ = ["create_app"]
