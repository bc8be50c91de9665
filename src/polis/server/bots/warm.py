"""Imported by the fork server of the bot worker processes (:func:`polis.server.bots.pool`'s
context preloads it): warms the games there once (:func:`polis.server.bots.worker.warm`), so
that every worker forked from it, a restarted one included, starts with what a game loads at
its first result instead of loading it inside a bot's first move."""

from __future__ import annotations

from polis.server.bots.worker import warm

warm()
