"""Each game's part of the web client, found in the game's own package.

A game with a browser client ships a ``web`` folder beside its modules: ``client.js`` (an ES
module the page imports), optionally ``style.css``, and ``i18n/<lang>.json`` (its strings).
The folder is located from the game object's module, so the server names no game and a
plug-in game brings its client with it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from polis.core.protocol import Game

#: The languages of the web client (every catalogue exists in each).
LANGUAGES = ("en", "de", "pl", "it")

#: What the server hands out of a game's web folder: URL name -> (path, media type).
FILES = {
    "client.js": ("client.js", "text/javascript"),
    "style.css": ("style.css", "text/css"),
}


def web_folder(game: Game) -> Traversable | None:
    """The ``web`` folder of the package that defines ``game``'s class, if it has one."""
    module = sys.modules.get(type(game).__module__)
    package = getattr(module, "__package__", None)
    if not package:
        return None
    folder = resources.files(package) / "web"
    return folder if folder.is_dir() else None


@dataclass(frozen=True, slots=True)
class GameClient:
    """Where the browser finds one game's client parts."""

    name: str
    folder: Traversable

    def has(self, path: str) -> bool:
        target = self.folder
        for part in path.split("/"):
            target = target / part
        return target.is_file()

    def read(self, path: str) -> str:
        target = self.folder
        for part in path.split("/"):
            target = target / part
        return target.read_text("utf-8")

    def meta(self) -> dict[str, Any]:
        """The URLs of the client's parts, as ``/api/meta`` lists them."""
        base = f"/games/{self.name}"
        return {
            "script": f"{base}/client.js",
            "style": f"{base}/style.css" if self.has("style.css") else None,
            "i18n": f"{base}/i18n",
        }


def game_client(game: Game) -> GameClient | None:
    """The web client of ``game``, or None for a game without one (it can still be played
    through the API)."""
    folder = web_folder(game)
    if folder is None or not (folder / "client.js").is_file():
        return None
    return GameClient(game.name, folder)
