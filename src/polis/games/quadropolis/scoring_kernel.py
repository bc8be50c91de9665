"""The exact scorer's key, compiled (numba): what self-play pays at every game's end.

:func:`best_key` returns the very key of
:func:`~polis.games.quadropolis.scoring_solver.solve_key` (``tests/quadropolis`` compares
them on random and adversarial cities), found with the same decomposition and bounds, but as
one compiled loop over plain arrays: the branch groups are walked depth first, best
alternative first, cut by the same optimistic bound that orders the Python solver's halves.
It gives the key only (the totals and places of a result); the allocation behind it, for a
scoring pad, is always rebuilt by the Python solver.

Every result takes its keys from here wherever the game's compiled package may be used
(:func:`~polis.games.quadropolis.scoring.scorer`; the package's cache, its freshness and its
compile aside are :mod:`polis.core.compiled`'s, and its warm compiles this kernel too); the
Python solver stays the readable reference, and the path where numba is missing,
``POLIS_COMPILED=off`` or ``POLIS_SCORER=reference``. Any change to this file makes the
package compile anew: about 15 s of CPU for this kernel, once.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from polis.games.quadropolis.city import KINDS, City, Geometry, geometry
from polis.games.quadropolis.scoring_solver import IB, W
from polis.games.quadropolis.scoring_tables import HARBOR_RUN, OFFICE, PARK, PUBLIC, SHOP, TOWER

if TYPE_CHECKING:
    from polis.games.quadropolis.scoring import _Options

_T, _O, _S, _U, _P, _PG, _F, _H, _M = range(len(KINDS))
_NEG = -(1 << 50)  # an infeasible key: far below any real one, and sums of a few never wrap

_TOWER = np.array(TOWER, np.int64)
_SHOP = np.array(SHOP, np.int64)
_PUBLIC = np.array(PUBLIC, np.int64)
_PARK = np.array(PARK, np.int64)
_HARBOR_RUN = np.array(HARBOR_RUN, np.int64)
_OFFICE = np.array(OFFICE, np.int64)

#: room for the alternatives of all branch groups: each group holds one per member plus
#: "none", so at most two per square of a 20-square city
_ALTS = 64


@njit(cache=True, nogil=True)
def _bits(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, nogil=True)
def _maxplus(a: Any, b: Any) -> Any:
    """(a (+) b)[t] = max over i + j = t of a[i] + b[j]."""
    out = np.full(len(a) + len(b) - 1, _NEG, np.int64)
    for i in range(len(a)):
        for j in range(len(b)):
            v = a[i] + b[j]
            if v > out[i + j]:
                out[i + j] = v
    return out


@njit(cache=True, nogil=True)
def _prefix_desc(values: Any) -> Any:
    """0, then the running sums of ``values`` taken largest first."""
    order = np.sort(values)[::-1]
    out = np.zeros(len(values) + 1, np.int64)
    for i in range(len(order)):
        out[i + 1] = out[i] + order[i]
    return out


@njit(cache=True, nogil=True)
def _prefix_group(alt: Any, at: int, keys: Any, squares: Any) -> int:
    """Write the alternatives "the best k" (k = 0..n) of interchangeable energy users
    (``keys`` on ``squares``, one energy each) from row ``at`` of ``alt``; the next free row."""
    alt[at] = 0
    for r in np.argsort(-keys):
        at += 1
        alt[at, 0] = alt[at - 1, 0] | 1 << squares[r]
        alt[at, 1] = 0
        alt[at, 2] = alt[at - 1, 2] + 1
        alt[at, 3] = alt[at - 1, 3] + keys[r]
    return at + 1


@njit(cache=True, nogil=True)
def _binary_group(alt: Any, at: int, square: int, inh: int, en: int, key: int) -> int:
    """Write the two alternatives of one building (left out, or active using ``inh`` and
    ``en``) from row ``at`` of ``alt``; the next free row."""
    alt[at] = 0
    alt[at + 1, 0] = 1 << square
    alt[at + 1, 1] = inh
    alt[at + 1, 2] = en
    alt[at + 1, 3] = key
    return at + 2


@njit(cache=True, nogil=True)
def _factory_values(act: Any, key0: Any, shops: Any, harbours: Any, offices: Any, out: Any) -> None:
    """Each branch factory's key with the buildings ``act`` active around it (+2 per Shop, +3
    per Harbor, +4 per Office Tower), into ``out``."""
    for q in range(len(key0)):
        out[q] = (
            key0[q]
            + 2 * W * _bits(act & shops[q])
            + 3 * W * _bits(act & harbours[q])
            + 4 * W * _bits(act & offices[q])
        )


@njit(cache=True, nogil=True)
def _leftover(cap: int, k: int, x: int) -> int:
    """Key of ``x`` inhabitants left after activation, with ``k`` active shops to fill."""
    c = min(x, k * cap)
    q, r = divmod(c, cap)
    key: int = (q * _SHOP[cap] + _SHOP[r]) * W + IB * c - W * (x - c)
    return key


@njit(cache=True, nogil=True)
def _inhabitants_part(vals: Any, nv: int, cu: Any, cap: int, k: int, x0: int, prefix: Any) -> int:
    """Best key of ``x0`` inhabitants over the factories (values ``vals[:nv]``), the unit
    items (``cu``: best key per count) and the shops' customers (``k`` active shops);
    ``prefix`` is room for ``nv + 1`` numbers (no allocation: this runs at every leaf)."""
    prefix[0] = 0
    for i in range(nv):  # the factories' values, best first, summed (insertion sort)
        v = vals[i]
        j = i
        while j and prefix[j] < v:
            prefix[j + 1] = prefix[j]
            j -= 1
        prefix[j + 1] = v
    for i in range(nv):
        prefix[i + 1] += prefix[i]
    n_cu = len(cu)
    best = _NEG
    for t in range(min(x0, nv + n_cu - 1) + 1):
        conv = _NEG  # (prefix (+) cu)[t]
        for i in range(max(0, t - n_cu + 1), min(t, nv) + 1):
            v = prefix[i] + cu[t - i]
            if v > conv:
                conv = v
        v = conv + _leftover(cap, k, x0 - t)
        if v > best:
            best = v
    return best


@njit(cache=True, nogil=True)
def _structure(
    act: int, parks: Any, floors: Any, om: int, cols: int, not_first: int, not_last: int, cap: int
) -> int:
    """Parks and Office Tower groups of the active Tower Blocks and Office Towers."""
    vp = 0
    for pn in parks:
        vp += _PARK[_bits(act & pn)]
    rest = act & om
    while rest:
        comp = rest & -rest
        while True:
            grow = comp | comp << cols | comp >> cols
            grow = (grow | (comp << 1) & not_first | (comp >> 1) & not_last) & rest
            if grow == comp:
                break
            comp = grow
        rest ^= comp
        size = min(_bits(comp), cap)
        while comp:
            low = comp & -comp
            sq = 0
            while low >> sq != 1:
                sq += 1
            vp += _OFFICE[size, floors[sq]]
            comp ^= low
    return vp * W


@njit(cache=True, nogil=True)
def _public(units: Any, unit_district: Any, districts: int) -> Any:
    """Best key for j activated Public Services (j = 0..n), the district table included."""
    n = len(units)
    dp = np.full((n + 1, districts + 1), _NEG, np.int64)
    dp[0, 0] = 0
    for d in range(districts):
        keys = units[unit_district == d]
        if len(keys) == 0:
            continue
        prefix = _prefix_desc(keys)
        new = np.full((n + 1, districts + 1), _NEG, np.int64)
        for j in range(n + 1):
            for cov in range(districts + 1):
                if dp[j, cov] == _NEG:
                    continue
                for c in range(len(prefix)):
                    cj, cc = j + c, cov + (1 if c else 0)
                    v = dp[j, cov] + prefix[c]
                    if v > new[cj, cc]:
                        new[cj, cc] = v
        dp = new
    best = np.full(n + 1, _NEG, np.int64)
    for j in range(n + 1):
        for cov in range(districts + 1):
            if dp[j, cov] != _NEG and dp[j, cov] + _PUBLIC[cov] * W > best[j]:
                best[j] = dp[j, cov] + _PUBLIC[cov] * W
    return best


@njit(cache=True, nogil=True)
def _segments(rows: int, cols: int, hm: int) -> Any:
    """(run bonus, squares) of every pair of one horizontal and one vertical harbour segment
    of length >= 2 (or none), best bonus first, fewest squares next; the empty pair left out."""
    segs = np.zeros((2, 64, 2), np.int64)  # per direction: (length, mask)
    counts = np.zeros(2, np.int64)
    for vertical in range(2):
        lines, length = (cols, rows) if vertical else (rows, cols)
        for s in range(lines):
            start = 0
            run = 0
            for k in range(length + 1):
                i = k * cols + s if vertical else s * cols + k
                if k < length and hm >> i & 1:
                    if run == 0:
                        start = k
                    run += 1
                    continue
                for a in range(run):
                    for b in range(a + 2, run + 1):
                        mask = 0
                        for q in range(start + a, start + b):
                            mask |= 1 << (q * cols + s if vertical else s * cols + q)
                        at = counts[vertical]
                        segs[vertical, at, 0] = b - a
                        segs[vertical, at, 1] = mask
                        counts[vertical] = at + 1
                run = 0
    nh, nv = counts[0], counts[1]
    out = np.zeros(((nh + 1) * (nv + 1), 3), np.int64)  # (-bonus, squares, union)
    m = 0
    for a in range(nh + 1):
        for b in range(nv + 1):
            if a == 0 and b == 0:
                continue
            union = (segs[0, a - 1, 1] if a else 0) | (segs[1, b - 1, 1] if b else 0)
            bonus = (_HARBOR_RUN[segs[0, a - 1, 0]] if a else 0) + (
                _HARBOR_RUN[segs[1, b - 1, 0]] if b else 0
            )
            out[m, 0] = -bonus
            out[m, 1] = _bits(union)
            out[m, 2] = union
            m += 1
    out = out[:m]
    order = np.argsort(out[:, 0] * 64 + out[:, 1], kind="mergesort")
    return out[order]


@njit(cache=True, nogil=True)
def best_key(
    cells: Any,
    neighbours: Any,
    district: Any,
    districts: int,
    cols: int,
    shop_cap: int,
    inh_owned: int,
    en_owned: int,
    playgrounds: bool,
    group_cap: int,
    after_removal: bool,
) -> int:
    """The scorer's key of a city owning ``inh_owned`` inhabitants and ``en_owned`` energy:
    ``cells`` holds a byte per square (see :func:`city_key`), the geometry is
    :class:`~polis.games.quadropolis.city.Geometry`'s."""
    size = len(cells)
    rows = size // cols
    kinds = np.empty(size, np.int64)
    floors = np.empty(size, np.int64)
    vps = np.empty(size, np.int64)
    for i in range(size):
        c = np.int64(cells[i])
        kinds[i] = c % 10 - 1
        floors[i] = c // 10 % 6
        vps[i] = c // 60
    eb = 1 if after_removal else 0
    count = np.zeros(9, np.int64)
    kmask = np.zeros(9, np.int64)
    empty = 0
    for i in range(size):
        k = kinds[i]
        if k < 0:
            empty += 1
        else:
            count[k] += 1
            kmask[k] |= 1 << i
    # resources no allocation can place are a plain penalty (scoring.usable)
    most_inh = count[_U] + count[_F] + count[_H] + count[_O] + shop_cap * count[_S]
    most_en = count[_T] + count[_S] + count[_O] + count[_P] + (count[_PG] if playgrounds else 0)
    inh = min(inh_owned, most_inh)
    en = min(en_owned, most_en)
    beyond = W * (inh_owned - inh + en_owned - en)

    tm, om, sm, fm, hm, mm = kmask[_T], kmask[_O], kmask[_S], kmask[_F], kmask[_H], kmask[_M]
    pm = kmask[_P] | kmask[_PG]
    slots = count[_P] + (count[_PG] if playgrounds else 0)
    adj_m = np.zeros(size, np.int64)
    for i in range(size):
        adj_m[i] = _bits(neighbours[i] & mm)
    not_first = 0
    not_last = 0
    for i in range(size):
        if i % cols:
            not_first |= 1 << i
        if i % cols != cols - 1:
            not_last |= 1 << i

    fixed_base = pm | mm
    base = eb * _bits(fixed_base) - (size if eb else empty)
    for i in range(size):
        if kinds[i] == _M:
            base += W * 5 * _bits(neighbours[i] & pm)

    # branch groups: alternatives (mask, inhabitants, energy, key), group g's at
    # g_start[g]..g_start[g + 1]
    alt = np.zeros((_ALTS, 4), np.int64)
    g_start = np.zeros(_ALTS + 1, np.int64)
    n_alt = 0
    n_grp = 0
    free_t = np.zeros(size, np.int64)
    n_tf = 0
    e_fixed = 0
    if en >= count[_T] + count[_S] + count[_O]:  # energy for every consumer
        fixed_base |= tm | sm
        e_fixed = count[_T] + count[_S]
        for i in range(size):
            if kinds[i] == _T:
                base += _TOWER[floors[i]] * W + eb
            elif kinds[i] == _S:
                base += 3 * adj_m[i] * W + eb
    else:
        plain = np.zeros(size, np.int64)
        plain_sq = np.zeros(size, np.int64)
        n_plain = 0
        for s in range(size):
            if kinds[s] != _S:
                continue
            key = 3 * adj_m[s] * W + eb
            if neighbours[s] & fm:  # its factories' value depends on it: a group of its own
                g_start[n_grp] = n_alt
                n_alt = _binary_group(alt, n_alt, s, 0, 1, key)
                n_grp += 1
            else:
                plain[n_plain] = key
                plain_sq[n_plain] = s
                n_plain += 1
        if n_plain:  # the best k of interchangeable shops
            g_start[n_grp] = n_alt
            n_alt = _prefix_group(alt, n_alt, plain[:n_plain], plain_sq[:n_plain])
            n_grp += 1
        # Tower Blocks beside the same Parks: the best k of them; beside none: free
        done = 0
        for t in range(size):
            if kinds[t] != _T or done >> t & 1:
                continue
            parks = neighbours[t] & pm
            if not parks:
                free_t[n_tf] = _TOWER[floors[t]] * W + eb
                n_tf += 1
                continue
            members = np.zeros(size, np.int64)
            member_sq = np.zeros(size, np.int64)
            n_mem = 0
            for u in range(t, size):
                if kinds[u] == _T and neighbours[u] & pm == parks:
                    members[n_mem] = _TOWER[floors[u]] * W + eb
                    member_sq[n_mem] = u
                    n_mem += 1
                    done |= 1 << u
            g_start[n_grp] = n_alt
            n_alt = _prefix_group(alt, n_alt, members[:n_mem], member_sq[:n_mem])
            n_grp += 1
    for o in range(size):
        if kinds[o] == _O:
            g_start[n_grp] = n_alt
            n_alt = _binary_group(alt, n_alt, o, 1, 1, IB + eb)
            n_grp += 1
    n_energy = n_grp
    energy_alts = n_alt
    energy_branch = 0
    for a in range(n_alt):
        energy_branch |= alt[a, 0]
    tprefix = _prefix_desc(free_t[:n_tf])
    e0 = en - e_fixed

    hval = np.zeros(size, np.int64)
    units = np.zeros(count[_U], np.int64)
    unit_district = np.zeros(count[_U], np.int64)
    n_u = 0
    for i in range(size):
        if kinds[i] == _H:
            hval[i] = (vps[i] - 5 * adj_m[i]) * W + IB + eb
        elif kinds[i] == _U:
            units[n_u] = (vps[i] + 2 * adj_m[i]) * W + IB + eb
            unit_district[n_u] = district[i]
            n_u += 1
    public = _public(units, unit_district, districts)
    parks_nb = np.zeros(count[_P] + count[_PG], np.int64)
    n_p = 0
    for i in range(size):
        if kinds[i] == _P or kinds[i] == _PG:
            parks_nb[n_p] = neighbours[i] & (tm | om)
            n_p += 1
    o_floors = np.sort(floors[kinds == _O].astype(np.int64))[::-1]
    n_o = count[_O]

    def inner(forced: int, need: int) -> int:
        """Best key above ``need`` with the harbours ``forced`` active (runs not scored),
        or _NEG when there is none."""
        inh_b = inh - _bits(forced)
        if inh_b < 0:
            return _NEG
        fixed = fixed_base | forced
        key_forced = 0
        n_g = n_energy
        n_a = energy_alts
        consts = np.zeros(2 * size, np.int64)
        n_c = 0
        branch_mask = energy_branch
        for h in range(size):
            if kinds[h] != _H:
                continue
            if forced >> h & 1:
                key_forced += hval[h]
            elif neighbours[h] & fm:
                g_start[n_g] = n_a
                n_a = _binary_group(alt, n_a, h, 1, 0, hval[h])
                branch_mask |= 1 << h
                n_g += 1
            else:
                consts[n_c] = hval[h]
                n_c += 1
        g_start[n_g] = n_a
        # factories: fixed value unless a neighbour is a branch building
        f_key0 = np.zeros(size, np.int64)
        f_ns = np.zeros(size, np.int64)
        f_nh = np.zeros(size, np.int64)
        f_no = np.zeros(size, np.int64)
        n_f = 0
        for f in range(size):
            if kinds[f] != _F:
                continue
            key0 = -5 * adj_m[f] * W + IB + eb
            ns, nh, no = neighbours[f] & sm, neighbours[f] & hm, neighbours[f] & om
            if (ns | nh | no) & branch_mask:
                f_key0[n_f] = key0
                f_ns[n_f] = ns
                f_nh[n_f] = nh
                f_no[n_f] = no
                n_f += 1
            else:
                consts[n_c] = key0 + 2 * W * _bits(ns & fixed) + 3 * W * _bits(nh & fixed)
                n_c += 1
        cu = _maxplus(_prefix_desc(consts[:n_c]), public)

        every = fixed | branch_mask
        struct_max = _structure(
            every & (om | tm), parks_nb, floors, om, cols, not_first, not_last, group_cap
        )
        park_max = 0
        for pn in parks_nb:
            park_max += _PARK[_bits(every & pn)]
        park_max *= W
        struct_ub = np.zeros(n_o + 1, np.int64)
        for n in range(n_o + 1):
            o_sum = 0
            for q in range(n):
                o_sum += _OFFICE[min(n, group_cap), o_floors[q]]
            struct_ub[n] = min(struct_max, park_max + W * o_sum)
        factories = (f_key0[:n_f], f_ns[:n_f], f_nh[:n_f], f_no[:n_f])
        vals = np.zeros(max(n_f, 1), np.int64)  # the factories' values: for the bound, per leaf
        work = np.zeros(n_f + 1, np.int64)
        _factory_values(every, *factories, vals)
        k_max = _bits(every & sm)
        most_group_inh = 0
        for g in range(n_g):
            top = 0
            for a in range(g_start[g], g_start[g + 1]):
                top = max(top, alt[a, 1])
            most_group_inh += top
        x_low = max(0, inh_b - most_group_inh)
        inh_ub = np.full(inh_b + 1, _NEG, np.int64)
        top_inh = _NEG
        for x in range(x_low, inh_b + 1):
            inh_ub[x] = _inhabitants_part(vals, n_f, cu, shop_cap, k_max, x, work)
            top_inh = max(top_inh, inh_ub[x])
        t_all = tprefix[min(max(e0, 0), n_tf)]
        rest_max = struct_max + top_inh + t_all
        o_row = min(inh_b, e0, n_o, group_cap)
        rest_opt = park_max + top_inh + t_all

        # each alternative's optimistic value (its Office Towers in one group of the most
        # that can be active), groups' alternatives best first, and the best of the groups
        # after each
        opt = np.zeros(n_a, np.int64)
        for a in range(n_a):
            v = alt[a, 3]
            m = alt[a, 0] & om
            for sq in range(size):
                if m >> sq & 1:
                    v += W * _OFFICE[o_row, floors[sq]]
            opt[a] = v
        order = np.zeros(n_a, np.int64)
        rem_opt = np.zeros(n_g + 1, np.int64)
        rem_key = np.zeros(n_g + 1, np.int64)
        for g in range(n_g):
            lo, hi = g_start[g], g_start[g + 1]
            sub = np.argsort(-opt[lo:hi], kind="mergesort")
            for r in range(hi - lo):
                order[lo + r] = lo + sub[r]
        for g in range(n_g - 1, -1, -1):
            best_opt = _NEG
            best_k = _NEG
            for a in range(g_start[g], g_start[g + 1]):
                if alt[a, 1] <= inh_b and alt[a, 2] <= e0:
                    best_opt = max(best_opt, opt[a])
                    best_k = max(best_k, alt[a, 3])
            rem_opt[g] = rem_opt[g + 1] + best_opt
            rem_key[g] = rem_key[g + 1] + best_k

        best = need - key_forced
        found = False
        # depth-first over the groups: per level the running sums before choosing
        s_opt = np.zeros(n_g + 1, np.int64)
        s_key = np.zeros(n_g + 1, np.int64)
        s_inh = np.zeros(n_g + 1, np.int64)
        s_en = np.zeros(n_g + 1, np.int64)
        s_mask = np.zeros(n_g + 1, np.int64)
        nxt = np.zeros(n_g + 1, np.int64)
        level = 0
        nxt[0] = g_start[0] if n_g else 0
        while level >= 0:
            if level == n_g:
                level -= 1
                # a leaf: every group chosen
                x0 = inh_b - s_inh[n_g]
                b0 = e0 - s_en[n_g]
                j = min(b0, n_tf)
                over = b0 - j - slots
                key = s_key[n_g] + tprefix[j] - (W * over if over > 0 else 0)
                if key + struct_max + inh_ub[x0] <= best:
                    continue
                act = fixed | s_mask[n_g]
                if key + struct_ub[_bits(act & om)] + inh_ub[x0] <= best:
                    continue
                key += _structure(
                    act & (om | tm), parks_nb, floors, om, cols, not_first, not_last, group_cap
                )
                if key + inh_ub[x0] <= best:
                    continue
                _factory_values(act, *factories, vals)
                key += _inhabitants_part(vals, n_f, cu, shop_cap, _bits(act & sm), x0, work)
                if key > best:
                    best = key
                    found = True
                continue
            a_at = nxt[level]
            if a_at >= g_start[level + 1]:
                level -= 1
                continue
            nxt[level] = a_at + 1
            a = order[a_at]
            if s_opt[level] + opt[a] + rem_opt[level + 1] + rest_opt <= best:
                nxt[level] = g_start[level + 1]  # the rest of this group is no better
                continue
            if s_key[level] + alt[a, 3] + rem_key[level + 1] + rest_max <= best:
                continue
            ni = s_inh[level] + alt[a, 1]
            ne = s_en[level] + alt[a, 2]
            if ni > inh_b or ne > e0:
                continue
            s_opt[level + 1] = s_opt[level] + opt[a]
            s_key[level + 1] = s_key[level] + alt[a, 3]
            s_inh[level + 1] = ni
            s_en[level + 1] = ne
            s_mask[level + 1] = s_mask[level] | alt[a, 0]
            level += 1
            if level < n_g:
                nxt[level] = g_start[level]
        if not found:
            return _NEG
        return best + key_forced

    best = inner(0, _NEG)
    unforced = best
    paired = hm & (hm >> 1) & not_last | hm & (hm >> cols)
    if paired:
        pairs = _segments(rows, cols, hm)
        for r in range(len(pairs)):
            bonus = -pairs[r, 0]
            if bonus * W + unforced <= best:
                break
            got = inner(pairs[r, 2], best - bonus * W)
            if got != _NEG:
                best = got + bonus * W
    total: int = base + best - beyond
    return total


#: a square's byte for the kernel: kind code + 1 (0 for an empty square) + 10 * floors + 60 * VP
_KIND_BYTE = {kind: code + 1 for code, kind in enumerate(KINDS)}


def city_key(mode: str, city: City, inh: int, en: int, opts: _Options) -> int:
    """:func:`best_key` of a city as the engine holds it: the arguments and the answer of
    :func:`polis.games.quadropolis.scoring._solver_key`."""
    cells = bytearray(  # bytearray(): three times faster than bytes() on a list
        [0 if b is None else _KIND_BYTE[b.kind] + 10 * b.floors + 60 * b.vp for b in city]
    )
    g, neighbours, district = _mat(mode)
    key: int = best_key(
        np.frombuffer(cells, np.uint8),
        neighbours,
        district,
        g.districts,
        g.cols,
        g.shop_capacity,
        inh,
        en,
        opts.playground_absorbs_pollution,
        opts.office_tower_group_cap,
        opts.empty_squares_after_removal,
    )
    return key


@cache
def _mat(mode: str) -> tuple[Geometry, Any, Any]:
    """A mode's geometry with its neighbour masks and districts as arrays (by mode name: a
    Geometry hashes all its tuples, a microsecond a call)."""
    g = geometry(mode)
    return g, np.array(g.neighbour_mask, np.int64), np.array(g.district, np.int64)


def warm() -> None:
    """Compile (or load) :func:`best_key` for the arguments :func:`city_key` passes (the
    engine's compiled scorer may pass other types): part of the compiled package's warm, so
    a package that says it is ready holds the results' key too."""
    from polis.games.quadropolis.scoring import _Options

    city_key("classic", (None,) * geometry("classic").size, 0, 0, _Options(False, 5, True))
