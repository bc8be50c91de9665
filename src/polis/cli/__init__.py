"""The ``polis`` command line (Typer + Rich); one module per command."""
