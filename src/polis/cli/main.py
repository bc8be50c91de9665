"""Entry point of the ``polis`` command: mounts each command module."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Annotated

import typer
from typer.core import TyperCommand

from polis.cli.common import Command, Group
from polis.cli.extras import DISTRIBUTION
from polis.core.registry import games

__all__ = ["DISTRIBUTION", "app", "installed_version"]

app = typer.Typer(
    name="polis",
    cls=Group,
    help=" and ".join(g.title for g in games().values())
    + ": score, replay, play, simulate, tournaments, the web app.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def installed_version() -> str:
    """The version of the installed distribution (the source tree's when not installed)."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        import polis

        return f"{polis.__version__} (not installed)"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"polis {installed_version()}")
        raise typer.Exit()


@app.callback()
def _main(
    _version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_show_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
) -> None:
    """Options that come before the command."""


def _mount() -> None:
    """Register every command; each lives in its own module under polis.cli."""
    from polis.cli import admin, arena, bot, play, replay, review, score, serve, simulate

    for module in (score, replay, review, play, simulate, arena, serve, admin, bot):
        module.register(app)
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):  # leave a command's own class alone
            info.cls = Command


_mount()

if __name__ == "__main__":  # pragma: no cover
    app()
