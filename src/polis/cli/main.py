"""Entry point of the ``polis`` command: mounts each command module."""

from __future__ import annotations

import typer

from polis.core.registry import games

app = typer.Typer(
    name="polis",
    help=" and ".join(g.title for g in games().values())
    + ": score, replay, play, simulate, tournaments, the web app.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _mount() -> None:
    """Register every command; each lives in its own module under polis.cli."""
    from polis.cli import arena, play, replay, score, serve, simulate

    for module in (score, replay, play, simulate, arena, serve):
        module.register(app)


_mount()

if __name__ == "__main__":  # pragma: no cover
    app()
