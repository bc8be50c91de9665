"""Copying a run of array items in compiled code as one ``llvm.memcpy``.

numba compiles an item-by-item copy between two arrays into one load and one store per item:
it cannot know the arrays do not overlap, so the copy is never made of vectors. The batch
observation (:mod:`.observe`) is mostly whole rows of small tables copied into the output;
this intrinsic copies them as LLVM's memcpy, which a constant length (a module constant)
turns into a few vector moves. Usable from compiled code only; both arrays C-contiguous, of
the same item type, and the items in range (nothing is checked).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _copy(typingctx: Any, dst: Any, at: Any, src: Any, start: Any, count: Any) -> Any:
    if not (
        isinstance(dst, types.Array)
        and isinstance(src, types.Array)
        and dst.dtype == src.dtype
        and dst.layout == "C"
        and src.layout == "C"
        and all(isinstance(x, types.Integer) for x in (at, start, count))
    ):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        d, i, s, j, n = args
        d_arr = context.make_array(signature.args[0])(context, builder, d)
        s_arr = context.make_array(signature.args[2])(context, builder, s)
        to = builder.gep(d_arr.data, [context.cast(builder, i, signature.args[1], types.int64)])
        fro = builder.gep(s_arr.data, [context.cast(builder, j, signature.args[3], types.int64)])
        size = context.get_abi_sizeof(context.get_data_type(signature.args[0].dtype))
        count64 = context.cast(builder, n, signature.args[4], types.int64)
        cgutils.raw_memcpy(builder, to, fro, count64, size)  # type: ignore[no-untyped-call]
        return context.get_dummy_value()

    return types.void(dst, at, src, start, count), codegen


#: ``copy_items(dst, at, src, start, count)``: ``dst.flat[at : at + count] =
#: src.flat[start : start + count]`` as one memcpy (the arrays must not overlap).
copy_items = cast(Callable[[Any, int, Any, int, int], None], intrinsic(_copy))
