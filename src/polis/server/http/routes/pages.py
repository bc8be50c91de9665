"""The page and the client files: ``/`` and each game's client part from its own package."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from polis.server.errors import ServerError
from polis.server.http.deps import ClientsDep
from polis.server.http.webfiles import FILES, LANGUAGES

STATIC = Path(str(resources.files("polis.server") / "static"))
#: Client files change with the installed version: the browser checks each time.
NO_CACHE = {"Cache-Control": "no-cache"}

router = APIRouter(include_in_schema=False)


@router.get("/")
async def index() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers=NO_CACHE)


@router.get("/games/{name}/i18n/{lang}.json")
async def game_strings(name: str, lang: str, clients: ClientsDep) -> Response:
    """One game's catalogue in one language."""
    client = clients.get(name)
    path = f"i18n/{lang}.json"
    if client is None or lang not in LANGUAGES or not client.has(path):
        raise ServerError("not_found", f"no {lang!r} strings for {name!r}")
    return Response(client.read(path), media_type="application/json", headers=NO_CACHE)


@router.get("/games/{name}/{file}")
async def game_file(name: str, file: str, clients: ClientsDep) -> Response:
    """One game's client module (or its style sheet), read from the game's package."""
    client = clients.get(name)
    if client is None or file not in FILES or not client.has(FILES[file][0]):
        raise ServerError("not_found", f"no {file!r} for {name!r}")
    path, media = FILES[file]
    return Response(client.read(path), media_type=media, headers=NO_CACHE)
