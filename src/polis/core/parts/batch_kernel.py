"""What every game's compiled batch (its ``compiled/observe.py``) shares, in compiled code.

A batch step first refuses any action its table's last mask forbids (:func:`first_refused`),
and scores a finished table with the game's own compiled scorer, whose totals and places
become the rewards of :func:`polis.research.session.final_rewards` here
(:func:`rewards_from`): one definition for every game. :class:`CompiledTables` is the
Python side every game's tables share: the call of its ``advance`` kernel.
"""

from __future__ import annotations

from typing import Any

from numba import njit

#: Reward kinds, in the order of ``polis.research.session.REWARDS``.
WIN_SHARE, MARGIN = 0, 1


@njit(cache=True, nogil=True)
def rewards_from(totals: Any, places: Any, n: int, kind: int, out: Any) -> None:
    """The rewards of seats ``0..n-1`` into ``out`` (``kind``: :data:`WIN_SHARE`, 1/k to
    each of k players sharing first place, ``places[p] == 0``; :data:`MARGIN`, own total
    minus the best other total)."""
    first = 0
    for p in range(n):
        if places[p] == 0:
            first += 1
    for p in range(n):
        if kind == WIN_SHARE:
            out[p] = 1.0 / first if places[p] == 0 else 0.0
        else:
            best = -(1 << 30)
            for q in range(n):
                if q != p and totals[q] > best:
                    best = totals[q]
            out[p] = totals[p] - best


@njit(cache=True, nogil=True)
def first_refused(actions: Any, masks: Any) -> int:
    """The first table whose action ``masks`` does not allow (out of range or masked),
    else -1; an empty ``actions`` refuses nothing."""
    size = masks.shape[1]
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= size or not masks[i, a]:
            return i
    return -1


class CompiledTables:
    """A game's compiled tables: the engine rows, the legal counts of the last masks and
    the step, its compiled ``advance`` kernel called on them. A game sets :attr:`rows`,
    :attr:`num_actions`, :attr:`block`, :attr:`counts`, :attr:`kernel` and :attr:`tables`
    (the kernel's arguments after ``counts``), and :meth:`deal`."""

    rows: Any
    num_actions: int
    #: Ids per block of :attr:`counts`.
    block: int
    #: Legal ids of each table's last mask per :attr:`block` ids (for the draws).
    counts: Any
    #: ``advance(rows, actions, masks, kind, (rewards, done, seats, obs, out_masks, counts),
    #: *tables) -> int``, the game's step (its ``compiled/observe.py``), one step of every
    #: table: ``actions[i]`` for the player to move on table ``i`` (refused, before any
    #: table moves, unless ``masks`` allows it: returns the first such table, else -1). A
    #: finished game's rewards go to ``rewards[i]`` (``kind``), ``done[i]`` is set and the
    #: table's next game is dealt from its generator; then ``seats``, the observations
    #: ``obs`` of the players to move, their masks ``out_masks`` and the masks' ``counts``
    #: are written (every entry of each). An empty ``actions`` plays nothing: the first
    #: batch. Observations are skipped when ``obs`` has no columns.
    kernel: Any
    #: What :attr:`kernel` reads after ``counts``: the game's tables.
    tables: tuple[Any, ...]

    def deal(self, seeds: Any) -> None:
        """A new game on every table (``seeds``: int64 per table, or empty: go on)."""
        raise NotImplementedError

    def advance(
        self,
        actions: Any,
        masks: Any,
        kind: int,
        rewards: Any,
        done: Any,
        seats: Any,
        obs: Any,
        out_masks: Any,
    ) -> int:
        """One step of every table (:attr:`kernel`; see the game's ``advance``): the first
        table whose action ``masks`` refuses (nothing moved), else -1."""
        outs = (rewards, done, seats, obs, out_masks, self.counts)
        found: int = self.kernel(self.rows, actions, masks, kind, outs, *self.tables)
        return found


__all__ = ["MARGIN", "WIN_SHARE", "CompiledTables", "first_refused", "rewards_from"]
