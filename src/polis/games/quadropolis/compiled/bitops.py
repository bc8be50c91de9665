"""Bit counting for the compiled engine as single machine instructions.

The engine keeps spots, city squares and offers as bit masks; a random move counts and
picks set bits dozens of times. numba has no popcount of its own, and the arithmetic forms
are several times slower than the CPU's instruction, so these two are LLVM intrinsics
(``llvm.ctpop``, ``llvm.cttz``): usable from compiled code only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from numba import types
from numba.extending import intrinsic


def _popcount(typingctx: Any, x: Any) -> Any:
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        count = builder.ctpop(args[0])
        return context.cast(builder, count, x, types.int64)

    return types.int64(x), codegen


def _trailing(typingctx: Any, x: Any) -> Any:
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        index = builder.cttz(args[0], context.get_constant(types.boolean, True))
        return context.cast(builder, index, x, types.int64)

    return types.int64(x), codegen


#: The number of set bits of an integer mask (``int64``).
bits = cast(Callable[[int], int], intrinsic(_popcount))
#: The index of the lowest set bit of a non-zero integer mask (``int64``).
lowest = cast(Callable[[int], int], intrinsic(_trailing))
