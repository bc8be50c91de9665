"""One folder per game: everything about a game lives in ``polis.games.<game>``.

Each game package exposes ``GAME``, its :class:`~polis.core.protocol.Game`, registered as a
``polis.games`` entry point; nothing outside a game's folder names the game or its facts.
"""
