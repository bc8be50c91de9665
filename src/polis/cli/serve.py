"""``polis serve``: the web app (both games, hot-seat, invite links, bots) on one port."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", help="Interface to listen on."),
        port: int = typer.Option(8000, help="TCP port."),
        db: str | None = typer.Option(
            None,
            help="Database URL: sqlite:///file.db or postgresql://user:pass@host/db "
            "(default: a SQLite file in the user data directory).",
        ),
        bot_delay: float = typer.Option(
            0.4, help="Seconds a bot waits before moving, so people can follow."
        ),
    ) -> None:
        """Serve the web app: open the printed address in a browser.

        Example: polis serve --port 8000 --db postgresql://polis:secret@localhost/polis
        """
        import uvicorn

        from polis.server import create_app

        application = create_app(db, bot_delay=bot_delay)
        typer.echo(f"polis: open http://{host}:{port}/ in your browser (Ctrl+C stops)")
        uvicorn.run(
            application,
            host=host,
            port=port,
            log_level="warning",
            ws_max_size=64 * 1024,
        )
