"""Observation encoders of the research adapters: a game's encoder for a table, shared.

The base every game's encoder builds on (:class:`Encoder`, :class:`Layout`, the byte and batch
tables and their helpers) lives in the core, :mod:`polis.core.parts.observation`, so a game's
``observation`` module imports nothing of the research layer; it is re-exported here. The
definition of every feature is the view encoding (:meth:`Encoder.encode`): the view is
already leak-free, so nothing a player may not see can reach a network. The adapters ask for
observations and legal masks from the *state* (:meth:`Encoder.encode_state`,
:meth:`Encoder.legal_mask`, :meth:`Encoder.encode_batch`), which games compute by fast paths
giving exactly the same numbers (each game's tests prove it over many random positions).
"""

from __future__ import annotations

from typing import Any

from polis.core.parts import OBSERVATION
from polis.core.parts.observation import (
    HIGH,
    BatchTables,
    ByteTables,
    Encoder,
    Ids,
    Layout,
    Mask,
    Obs,
    TableEncoder,
    one_hot_bytes,
    ordered,
    repeated_struct,
    slot,
)
from polis.core.protocol import Game, GameState


def encoder(game: Game, mode: str, players: int) -> Encoder[Any]:
    """The observation encoder of ``game`` (its ``observation`` part) for a table."""
    return game.plugin(OBSERVATION)(mode, players)


_SHARED: dict[tuple[int, str, int], tuple[Game, Encoder[Any]]] = {}


def encoder_of(state: GameState) -> Encoder[Any]:
    """The encoder of ``state``'s table, made once per game, mode and player count (encoders
    hold only tables, so one serves every state of the table). A game without an observation
    encoder gets the base class, whose legal ids and masks come from ``legal_moves()``."""
    game = state.game
    key = (id(game), state.mode, state.num_players)
    found = _SHARED.get(key)
    if found is None or found[0] is not game:
        made: Encoder[Any] = (
            encoder(game, state.mode, state.num_players)
            if OBSERVATION.name in game.plugins
            else Encoder()
        )
        found = _SHARED[key] = (game, made)
    return found[1]


__all__ = [
    "HIGH",
    "BatchTables",
    "ByteTables",
    "Encoder",
    "Ids",
    "Layout",
    "Mask",
    "Obs",
    "TableEncoder",
    "encoder",
    "encoder_of",
    "one_hot_bytes",
    "ordered",
    "repeated_struct",
    "slot",
]
