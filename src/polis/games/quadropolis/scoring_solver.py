"""The optimiser behind the exact Quadropolis scorer: the best final allocation (spec §8).

Every choice is folded into one integer *key* that orders allocations lexicographically:
``total * W + inhabitants_on_buildings * IB - empty_squares``. The search is exact; each
shortcut below is an exchange argument or a valid bound:

* Harbour runs (A12) only score the longest horizontal and the longest vertical run, so an
  allocation is described by one horizontal and one vertical *segment* of harbours (forced
  active, their run bonus paid up front) plus harbours that score alone. The model never
  overrates an allocation and describes the optimum exactly, so the best model value is the
  optimum. Segment pairs are tried best bonus first and cut by ``bonus + best without runs``.
* Energy-only consumers never lose anything when activated; with energy for every consumer
  they are all active. Otherwise Shops without a Factory neighbour are interchangeable up to
  their Monument neighbours (take the top k), Tower Blocks beside the same Parks are
  interchangeable up to floors (top k per park set), and Tower Blocks beside no Park take
  the leftover energy best-first.
* Public Services interact only through the district table: a per-district DP gives the best
  key for every number of activated services, once per city.
* Given the branched buildings every Factory's value is fixed, so Factories, lone Harbours
  and Public Services are unit-cost items merged by a max-plus convolution per factory
  profile; customers fill shops one by one (convex shop table), park energy is closed-form.
* What is left (Office Towers, Shops and Harbours beside Factories, park-side Tower Block
  counts) is enumerated meet-in-the-middle with monotone upper bounds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache, lru_cache
from operator import add

from polis.games.quadropolis.city import City, Geometry
from polis.games.quadropolis.scoring_tables import HARBOR_RUN, OFFICE, PARK, PUBLIC, SHOP, TOWER

W = 1 << 13  # weight of one VP in a key
IB = 32  # weight of one inhabitant on a building (first tie-break)
_NEG = -(1 << 62)

#: one alternative of a branch group: (squares mask, inhabitants, energy, key)
Alt = tuple[int, int, int, int]
#: the optimiser's answer: (key, active mask, customers, park-energy squares)
Allocation = tuple[int, int, dict[int, int], list[int]]


def _combine(groups: list[list[Alt]]) -> list[Alt]:
    """Every way to pick one alternative per group, summed."""
    out: list[Alt] = [(0, 0, 0, 0)]
    for group in groups:
        out = [(m | gm, a + ga, e + ge, v + gv) for m, a, e, v in out for gm, ga, ge, gv in group]
    return out


def _prefix_group(items: list[tuple[int, int]], inh: int, en: int) -> list[Alt]:
    """Alternatives 'the best k' of interchangeable (key, square) items, k = 0..n."""
    items.sort(reverse=True)
    out: list[Alt] = [(0, 0, 0, 0)]
    for key, sq in items:
        m, a, e, v = out[-1]
        out.append((m | 1 << sq, a + inh, e + en, v + key))
    return out


@lru_cache(maxsize=4096)
def _public_dp(
    district: tuple[int, ...], units: tuple[tuple[int, int], ...]
) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Best key for j activated Public Services, j = 0..n, with the count taken per district.

    Within a district only the best-valued services are worth taking; across districts the
    (convex) district table couples them, so a DP over districts with state (count, covered).
    """
    by_district: dict[int, list[int]] = {}
    for sq, key in units:
        by_district.setdefault(district[sq], []).append(key)
    dp: dict[tuple[int, int], tuple[int, tuple[tuple[int, int], ...]]] = {(0, 0): (0, ())}
    for d, keys in sorted(by_district.items()):
        keys.sort(reverse=True)
        prefix = [0]
        for k in keys:
            prefix.append(prefix[-1] + k)
        new: dict[tuple[int, int], tuple[int, tuple[tuple[int, int], ...]]] = {}
        for (j, cov), (val, choice) in dp.items():
            for c, pv in enumerate(prefix):
                state = (j + c, cov + (c > 0))
                cand = val + pv
                if state not in new or cand > new[state][0]:
                    new[state] = (cand, (*choice, (d, c)) if c else choice)
        dp = new
    best: list[tuple[int, tuple[tuple[int, int], ...]]] = [(_NEG, ())] * (len(units) + 1)
    for (j, cov), (val, choice) in dp.items():
        cand = val + PUBLIC[cov] * W
        if cand > best[j][0]:
            best[j] = (cand, choice)
    return tuple(best)


def _maxplus(a: list[int], b: list[int]) -> list[int]:
    """(a (+) b)[t] = max over i + j = t of a[i] + b[j]."""
    if len(a) == 1:
        x = a[0]
        return [x + y for y in b]
    out = [_NEG] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b, i):
            if x + y > out[j]:
                out[j] = x + y
    return out


@lru_cache(maxsize=4096)
def _segments(rows: int, cols: int, hm: int) -> tuple[tuple[int, int], ...]:
    """(run bonus, squares) of every pair of one horizontal and one vertical harbour segment.

    Segments of length >= 2 only (a run of 1 scores 0); one entry per union, best bonus,
    best bonus first; the empty pair is left out.
    """
    lines: list[list[list[int]]] = [[], []]
    for horizontal, line_count, length in ((0, rows, cols), (1, cols, rows)):
        for s in range(line_count):
            run: list[int] = []
            for k in range(length + 1):
                i = s * cols + k if horizontal == 0 else k * cols + s
                if k < length and hm >> i & 1:
                    run.append(i)
                    continue
                for a in range(len(run)):
                    for b in range(a + 2, len(run) + 1):
                        lines[horizontal].append(run[a:b])
                run = []
    best: dict[int, int] = {}
    for hseg in [[], *lines[0]]:
        hmask = sum(1 << i for i in hseg)
        for vseg in [[], *lines[1]]:
            union = hmask | sum(1 << i for i in vseg)
            bonus = HARBOR_RUN[len(hseg)] + HARBOR_RUN[len(vseg)]
            if union and bonus > best.get(union, -1):
                best[union] = bonus
    return tuple(sorted(((b, u) for u, b in best.items()), key=lambda p: (-p[0], p[1].bit_count())))


@lru_cache(maxsize=1024)
def _leftover(cap: int, k: int, inh: int) -> tuple[int, ...]:
    """Key of x = 0..inh inhabitants left after activation, with k active shops to fill."""
    full_shop = SHOP[cap]
    row: list[int] = []
    for x in range(inh + 1):
        c = min(x, k * cap)
        q, r = divmod(c, cap)
        row.append((q * full_shop + SHOP[r]) * W + IB * c - W * (x - c))
    return tuple(row)


@lru_cache(maxsize=8)
def edges(g: Geometry) -> tuple[int, int, int]:
    """Masks of the squares off the first column, off the last column, and of every square."""
    not_first = sum(1 << i for i in range(g.size) if i % g.cols)
    not_last = sum(1 << i for i in range(g.size) if i % g.cols != g.cols - 1)
    return not_first, not_last, (1 << g.size) - 1


def clear_city_caches() -> None:
    """Forget the per-city memo tables (harbour segments, Public Service DPs); for benchmarks."""
    _segments.cache_clear()
    _public_dp.cache_clear()


def components(mask: int, cols: int, not_first: int, not_last: int) -> Iterator[int]:
    """The orthogonally connected groups of the squares in ``mask``, each as a bit mask.

    ``not_first`` / ``not_last`` mask out the first / last column, so that shifting by one
    square never wraps round to the next row.
    """
    while mask:
        comp = mask & -mask
        while True:
            grow = (
                comp
                | comp << cols
                | comp >> cols
                | (comp << 1) & not_first
                | (comp >> 1) & not_last
            ) & mask
            if grow == comp:
                break
            comp = grow
        mask ^= comp
        yield comp


def solve(
    g: Geometry,
    city: City,
    inh: int,
    en: int,
    playgrounds: bool,
    group_cap: int,
    empty_after_removal: bool,
) -> Allocation:
    """The best allocation of ``inh`` inhabitants and ``en`` energy for ``city``."""
    return solve_key(g, city, inh, en, playgrounds, group_cap, empty_after_removal)[1]()


def solve_key(
    g: Geometry,
    city: City,
    inh: int,
    en: int,
    playgrounds: bool,
    group_cap: int,
    empty_after_removal: bool,
) -> tuple[int, Callable[[], Allocation]]:
    """The best key for ``city`` now, and a function that rebuilds its allocation.

    A result's places need only the key; the allocation (which buildings are active, the
    customers, the parks' energy) is rebuilt only for a scoring pad, so most calls skip it.
    """
    bc = int.bit_count
    nbm = g.neighbour_mask
    cols = g.cols
    cap = g.shop_capacity
    eb = 1 if empty_after_removal else 0
    squares: dict[str, list[int]] = {k: [] for k in "TOSUPpFHM"}
    mask = dict.fromkeys("TOSUPpFHM", 0)
    for i, b in enumerate(city):
        if b is not None:
            squares[b.kind].append(i)
            mask[b.kind] |= 1 << i
    tm, om, sm, fm, hm, mm = mask["T"], mask["O"], mask["S"], mask["F"], mask["H"], mask["M"]
    pm = mask["P"] | mask["p"]
    green = sorted(squares["P"] + (squares["p"] if playgrounds else []))
    slots = len(green)
    floors = [b.floors if b is not None else 0 for b in city]
    vps = [b.vp if b is not None else 0 for b in city]
    adj_m = [bc(nbm[i] & mm) for i in range(g.size)]

    fixed_base = pm | mm
    # -empty_squares = (active buildings) - size, or minus the bare squares (A19 option)
    base = eb * bc(fixed_base) - (g.size if eb else city.count(None))
    base += W * sum(5 * bc(nbm[m] & pm) for m in squares["M"])
    n_t, n_s, n_o = len(squares["T"]), len(squares["S"]), len(squares["O"])
    energy_groups: list[list[Alt]] = []
    free_t: list[tuple[int, int]] = []  # (key, square): energy-only, independent
    e_fixed = 0
    if en >= n_t + n_s + n_o:  # energy for every consumer: T and S are always worth it
        fixed_base |= tm | sm
        e_fixed = n_t + n_s
        base += sum(TOWER[floors[t]] * W + eb for t in squares["T"])
        base += sum(3 * adj_m[s] * W + eb for s in squares["S"])
    else:
        plain: list[tuple[int, int]] = []
        for s in squares["S"]:
            key = 3 * adj_m[s] * W + eb
            if nbm[s] & fm:
                energy_groups.append([(0, 0, 0, 0), (1 << s, 0, 1, key)])
            else:
                plain.append((key, s))
        if plain:
            energy_groups.append(_prefix_group(plain, 0, 1))
        by_parks: dict[int, list[tuple[int, int]]] = {}
        for t in squares["T"]:
            key = TOWER[floors[t]] * W + eb
            if nbm[t] & pm:
                by_parks.setdefault(nbm[t] & pm, []).append((key, t))
            else:
                free_t.append((key, t))
        energy_groups += [_prefix_group(v, 0, 1) for _, v in sorted(by_parks.items())]
    energy_groups += [[(0, 0, 0, 0), (1 << o, 1, 1, IB + eb)] for o in squares["O"]]
    free_t.sort(reverse=True)
    tprefix = [0]
    for key, _ in free_t:
        tprefix.append(tprefix[-1] + key)
    n_tf = len(free_t)
    e0 = en - e_fixed
    hval = [(vps[h] - 5 * adj_m[h]) * W + IB + eb for h in range(g.size)]
    units = [(u, (vps[u] + 2 * adj_m[u]) * W + IB + eb) for u in squares["U"]]
    public = _public_dp(g.district, tuple(units))
    public_keys = [p[0] for p in public]

    park_nbrs = [nbm[p] & (tm | om) for p in squares["P"] + squares["p"]]
    not_first, not_last, _ = edges(g)
    s_cache: dict[int, int] = {}

    def structure(act: int) -> int:
        """Parks and Office Tower groups of the active Tower Blocks and Office Towers."""
        vp = 0
        for pn in park_nbrs:
            vp += PARK[bc(act & pn)]
        for comp in components(act & om, cols, not_first, not_last):
            row = OFFICE[min(bc(comp), group_cap)]
            while comp:
                low = comp & -comp
                vp += row[floors[low.bit_length() - 1]]
                comp ^= low
        return vp * W

    # leftover[k][x]: key of x inhabitants left after activation with k active shops
    leftover = [_leftover(cap, k, inh) for k in range(n_s + 1)]
    w2, w3, w4 = 2 * W, 3 * W, 4 * W

    energy_branch = 0
    for group in energy_groups:
        for alt in group:
            energy_branch |= alt[0]
    n_energy = len(energy_groups)
    o_floors = sorted((floors[o] for o in squares["O"]), reverse=True)

    def inner(forced: int, need: int) -> tuple[int, Callable[[], Allocation]] | None:
        """Best key above ``need`` with the harbours ``forced`` active (runs not scored)."""
        inh_b = inh - bc(forced)
        if inh_b < 0:
            return None
        fixed = fixed_base | forced
        key_forced = sum(hval[h] for h in squares["H"] if forced >> h & 1)
        groups = list(energy_groups)
        const_items: list[tuple[int, int]] = []  # (key, square): inhabitant-only, independent
        for h in squares["H"]:
            if forced >> h & 1:
                continue
            if nbm[h] & fm:
                groups.append([(0, 0, 0, 0), (1 << h, 1, 0, hval[h])])
            else:
                const_items.append((hval[h], h))
        branch_mask = energy_branch
        for group in groups[n_energy:]:
            branch_mask |= group[1][0]
        var_f: list[tuple[int, int, int, int, int]] = []  # (square, key0, shops, harb., off.)
        for f in squares["F"]:
            key0 = -5 * adj_m[f] * W + IB + eb
            ns, nh, no = nbm[f] & sm, nbm[f] & hm, nbm[f] & om
            if (ns | nh | no) & branch_mask:
                var_f.append((f, key0, ns, nh, no))
            else:
                const_items.append((key0 + w2 * bc(ns & fixed) + w3 * bc(nh & fixed), f))
        const_items.sort(reverse=True)
        cprefix = [0]
        for key, _ in const_items:
            cprefix.append(cprefix[-1] + key)
        cu = _maxplus(cprefix, public_keys)
        conv_cache: dict[tuple[int, ...], list[int]] = {}

        def inhabitants_part(vals: tuple[int, ...], x0: int, k: int) -> int:
            conv = conv_cache.get(vals)
            if conv is None:
                prefix = [0]
                for v in vals:
                    prefix.append(prefix[-1] + v)
                conv = conv_cache[vals] = _maxplus(prefix, cu)
            top = min(x0, len(conv) - 1)
            part: int = max(map(add, conv[: top + 1], leftover[k][x0 - top : x0 + 1][::-1]))
            return part

        # meet in the middle over the groups, halves of balanced size
        sizes = [len(grp) for grp in groups]
        total = 1
        for s in sizes:
            total *= s
        split, prod = 0, 1
        while split < len(groups) and prod * prod < total:
            prod *= sizes[split]
            split += 1
        half_a = [s for s in _combine(groups[:split]) if s[1] <= inh_b and s[2] <= e0]
        half_b = [s for s in _combine(groups[split:]) if s[1] <= inh_b and s[2] <= e0]
        if not half_a or not half_b:
            return None
        v_cache: dict[int, tuple[int, ...]] = {}
        f_rel = 0
        for _, _, ns, nh, no in var_f:
            f_rel |= ns | nh | no
        i_cache: dict[tuple[tuple[int, ...], int, int], int] = {}
        struct_mask = om | tm
        # Bounds (every structural term and the inhabitants part only grow with more
        # buildings active, more shops and better factory values).
        every = fixed | branch_mask
        struct_max = structure(every & struct_mask)
        # with n towers active: every park at its best, the towers as one group of n
        park_max = sum(PARK[bc(every & pn)] for pn in park_nbrs) * W
        struct_ub = [
            min(struct_max, park_max + W * sum(OFFICE[min(n, group_cap)][f] for f in o_floors[:n]))
            for n in range(n_o + 1)
        ]
        k_max = bc(every & sm)
        vals_max = tuple(
            sorted(
                [
                    k0 + w2 * bc(every & ns) + w3 * bc(every & nh) + w4 * bc(every & no)
                    for _, k0, ns, nh, no in var_f
                ],
                reverse=True,
            )
        )
        x_low = max(0, inh_b - sum(max(a[1] for a in grp) for grp in groups))
        inh_ub = [_NEG] * x_low + [
            inhabitants_part(vals_max, x, k_max) for x in range(x_low, inh_b + 1)
        ]
        rest_max = struct_max + max(inh_ub) + tprefix[min(max(e0, 0), n_tf)]
        # Office Towers as one group of the most towers that can be active: an additive bound
        # that sorts and cuts the two halves (their exact keys leave the towers' VP out).
        o_row = OFFICE[min(inh_b, e0, n_o, group_cap)]
        o_opt = [W * o_row[f] for f in floors]
        rest_opt = park_max + max(inh_ub) + tprefix[min(max(e0, 0), n_tf)]

        def optimistic(alt: Alt) -> tuple[int, int, int, int, int]:
            m = alt[0] & om
            v = alt[3]
            while m:
                low = m & -m
                v += o_opt[low.bit_length() - 1]
                m ^= low
            return (v, *alt)

        opt_a = sorted(map(optimistic, half_a), reverse=True)
        opt_b = sorted(map(optimistic, half_b), reverse=True)
        best_key = need - key_forced
        best_act = -1
        buckets: list[list[tuple[int, int, int, int, int]]] = [[] for _ in range(e0 + 1)]
        for item in opt_b:
            buckets[item[3]].append(item)
        top_b = opt_b[0][0]
        for pa, ma, ia, ea, ua in opt_a:
            if pa + top_b + rest_opt <= best_key:
                break
            for bucket in buckets[: e0 - ea + 1]:
                for pb, mb, ib, eb_, ub in bucket:
                    if pa + pb + rest_opt <= best_key:
                        break
                    if ua + ub + rest_max <= best_key:
                        continue
                    x0 = inh_b - ia - ib
                    if x0 < 0:
                        continue
                    b0 = e0 - ea - eb_
                    j = b0 if b0 < n_tf else n_tf
                    over = b0 - j - slots
                    key = ua + ub + tprefix[j] - (W * over if over > 0 else 0)
                    if key + struct_max + inh_ub[x0] <= best_key:
                        continue
                    act = fixed | ma | mb
                    if key + struct_ub[bc(act & om)] + inh_ub[x0] <= best_key:
                        continue
                    s = act & struct_mask
                    sv = s_cache.get(s)
                    if sv is None:
                        sv = s_cache[s] = structure(s)
                    key += sv
                    if key + inh_ub[x0] <= best_key:
                        continue
                    k = bc(act & sm)
                    fk = act & f_rel
                    vals = v_cache.get(fk)
                    if vals is None:
                        vals = v_cache[fk] = tuple(
                            sorted(
                                [
                                    k0 + w2 * bc(act & ns) + w3 * bc(act & nh) + w4 * bc(act & no)
                                    for _, k0, ns, nh, no in var_f
                                ],
                                reverse=True,
                            )
                        )
                    ik = (vals, x0, k)
                    ip = i_cache.get(ik)
                    if ip is None:
                        ip = i_cache[ik] = inhabitants_part(vals, x0, k)
                    key += ip
                    if key > best_key:
                        best_key, best_act = key, act
        if best_act < 0:
            return None
        found_act = best_act

        def finish() -> Allocation:
            """Rebuild the allocation behind the best key."""
            act = found_act
            x0 = inh - bc(act & (hm | om))
            b0 = e0 - bc(act & branch_mask & (tm | sm | om))
            k = bc(act & sm)
            fv = sorted(
                (
                    (k0 + w2 * bc(act & ns) + w3 * bc(act & nh) + w4 * bc(act & no), f)
                    for f, k0, ns, nh, no in var_f
                ),
                reverse=True,
            )
            vals = tuple(v for v, _ in fv)
            target = inhabitants_part(vals, x0, k)
            conv = conv_cache[vals]
            fprefix = [0]
            for v, _ in fv:
                fprefix.append(fprefix[-1] + v)
            x_left = x0
            lk = leftover[k]
            for t in range(min(x0, len(conv) - 1) + 1):
                if conv[t] + lk[x0 - t] != target:
                    continue
                hit = _pick(t, fprefix, cprefix, public_keys, target - lk[x0 - t])
                if hit is not None:
                    a, ca, rest = hit
                    act |= sum(1 << f for _, f in fv[:a])
                    act |= sum(1 << sq for _, sq in const_items[:ca])
                    for d, c in public[rest][1]:
                        ranked = sorted((key, u) for u, key in units if g.district[u] == d)
                        act |= sum(1 << u for _, u in ranked[::-1][:c])
                    x_left = x0 - t
                    break
            j = min(b0, n_tf)
            act |= sum(1 << t for _, t in free_t[:j])
            customers: dict[int, int] = {}
            c = min(x_left, k * cap)
            for s in squares["S"]:
                if act >> s & 1 and c:
                    customers[s] = min(c, cap)
                    c -= customers[s]
            return 0, act, customers, green[: max(0, min(b0 - j, slots))]

        return best_key + key_forced, finish

    first = inner(0, _NEG)
    assert first is not None  # activating nothing optional is always feasible
    best, finish0 = first
    unforced = best
    # The unforced allocation, rebuilt at most once (by the segment test or by the caller).
    unforced_allocation = cache(finish0)
    finish: Callable[[], Allocation] = unforced_allocation
    # Harbour runs need two harbours side by side (in a row or a column); most cities have none.
    paired = hm & (hm >> 1) & not_last | hm & (hm >> cols)
    for bonus, union in _segments(g.rows, cols, hm) if paired else ():
        if bonus * W + unforced <= best:
            break
        if union & unforced_allocation()[1] == union:
            # the unforced optimum already holds this segment pair, so forcing it changes
            # nothing: its key plus this bonus is reached, and no later pair can beat it
            best, finish = unforced + bonus * W, unforced_allocation
            break
        got = inner(union, best - bonus * W)
        if got is not None:
            best, finish = got[0] + bonus * W, got[1]
    key = base + best

    def allocation() -> Allocation:
        _, act, customers, parks = finish()
        return key, act, customers, parks

    return key, allocation


def _pick(
    t: int, fprefix: list[int], cprefix: list[int], public: list[int], want: int
) -> tuple[int, int, int] | None:
    """Split t inhabitant-only activations over factories, lone items and services to reach want."""
    for a in range(min(t, len(fprefix) - 1) + 1):
        for ca in range(min(t - a, len(cprefix) - 1) + 1):
            rest = t - a - ca
            if rest < len(public) and fprefix[a] + cprefix[ca] + public[rest] == want:
                return a, ca, rest
    return None
