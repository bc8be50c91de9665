"""Draw the README's pictures: a Quadropolis and a Metropolys table part-way through a game,
as a player sees them in Chromium (1366x900, light theme).

    .venv/bin/python scripts/readme_pictures.py [docs/images]

Starts ``polis serve`` on a temporary SQLite file and a free port, makes a table of one person
and bots for each game, plays the person's first legal choices over the table's WebSocket
until the game is part-way, then opens the person's seat in the browser and saves a PNG.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
TABLES = {
    "quadropolis": ("classic", 4, 9),  # mode, players, the person's moves before the picture
    "metropolys": ("family", 3, 6),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(base: str, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


async def play(ws_url: str, token: str, moves: int) -> None:
    """Play the seat's first legal choice ``moves`` times (bots answer in between)."""
    async with websockets.connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        made = 0
        while made < moves:
            msg = json.loads(await ws.recv())
            if msg.get("type") == "state" and msg.get("legal"):
                await ws.send(
                    json.dumps(
                        {"type": "move", "move": msg["legal"][0], "position": msg["position"]}
                    )
                )
                made += 1


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [sys.executable, "-m", "polis.cli.main", "serve", "--port", str(port),
             "--db", f"sqlite:///{tmp}/pictures.db"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(base + "/api/meta", timeout=1)
                    break
                except OSError:
                    time.sleep(0.2)
            tables = {}
            for game, (mode, players, moves) in TABLES.items():
                seats = [{"name": "Ada", "kind": "human"}] + [
                    {"kind": "bot", "level": "easy"} for _ in range(players - 1)
                ]
                made = call(base, "/api/games", {"game": game, "mode": mode, "seats": seats})
                token = made["seats"][0]["token"]
                asyncio.run(play(f"ws://127.0.0.1:{port}/ws/{made['id']}", token, moves))
                tables[game] = f"{base}/#/game/{made['id']}/{token}"
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                for game, url in tables.items():
                    page = browser.new_page(viewport={"width": 1366, "height": 900})
                    page.emulate_media(color_scheme="light", reduced_motion="reduce")
                    page.goto(url)
                    page.wait_for_timeout(2500)  # the table drawn, bots' replies shown
                    page.screenshot(path=str(out / f"{game}-table.png"))
                    page.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
