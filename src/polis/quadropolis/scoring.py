"""The exact Quadropolis scorer: best final allocation (spec §8) and scoring (§10-§13).

Why it is exact and fast. Every choice is folded into one integer *key* that orders
allocations lexicographically: ``total * W + inhabitants_on_buildings * IB - empty_squares``.
Then:

* Energy-only consumers (Tower Blocks, Shops) never lose anything when activated, so with
  enough energy for every consumer they are all active; otherwise Shops and park-side Tower
  Blocks are branched on and the other Tower Blocks take the energy best-first.
* Public Services interact only through the district table: a per-district DP gives the best
  key for every number of activated services, once per city.
* Given the branched buildings, each Factory's value is fixed (its neighbours are decided), so
  Factories are independent unit-cost items: best-first prefix sums.
* Customers: the shop table is convex, so for ``c`` customers filling shops one by one is
  best and more customers are always better; park energy is closed-form too.
* Only Office Towers, Harbours in a line or next to a Factory (and, when energy is short,
  Shops and park-side Tower Blocks) are enumerated, meet-in-the-middle over two half tables,
  with the structural part (parks, harbour runs, office groups) memoised by bit mask.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from polis.core.errors import InputError
from polis.quadropolis.city import City, Geometry, geometry, load_city_file
from polis.quadropolis.scoring_tables import (
    CATEGORIES,
    FACTORY,
    HARBOR_RUN,
    MONUMENT,
    OFFICE,
    PARK,
    PUBLIC,
    SHOP,
    TOWER,
)

W = 1 << 13  # weight of one VP in a key
IB = 32  # weight of one inhabitant on a building (first tie-break)
_INHABITANT_USERS = frozenset("UFHO")
_ENERGY_USERS = frozenset("TSO")


@dataclass(frozen=True, slots=True)
class ScoreReport:
    """One city's score with its optimal allocation (formats.md §1.3)."""

    mode: str
    total: int
    categories: Mapping[str, int]
    inhabitants_on_buildings: int
    empty_squares: int
    inactive: tuple[int, ...] = ()
    customers: Mapping[int, int] = field(default_factory=dict)
    park_energy: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Exactly the formats.md §1.3 object (squares named ``r1c2``)."""
        names = geometry(self.mode).names
        return {
            "game": "quadropolis",
            "mode": self.mode,
            "total": self.total,
            "categories": {k: self.categories[k] for k in CATEGORIES},
            "inhabitants_on_buildings": self.inhabitants_on_buildings,
            "empty_squares": self.empty_squares,
            "allocation": {
                "inactive": [names[i] for i in self.inactive],
                "customers": {names[i]: n for i, n in sorted(self.customers.items())},
                "park_energy": [names[i] for i in self.park_energy],
            },
        }


@dataclass(frozen=True, slots=True)
class _Options:
    playground_absorbs_pollution: bool
    office_tower_group_cap: int
    empty_squares_after_removal: bool


# -- evaluation of one allocation ------------------------------------------------------------


def _office_groups(g: Geometry, city: City, active: int, cap: int) -> int:
    """Office Tower VP: orthogonally connected groups, each tower by min(group, cap) (A14)."""
    towers = [i for i, b in enumerate(city) if b is not None and b.kind == "O" and active >> i & 1]
    seen: set[int] = set()
    total = 0
    for start in towers:
        if start in seen:
            continue
        group, todo = [start], [start]
        seen.add(start)
        while todo:
            i = todo.pop()
            for j in g.neighbours[i]:
                if j not in seen and j in towers:
                    seen.add(j)
                    group.append(j)
                    todo.append(j)
        row = OFFICE[min(len(group), cap)]
        total += sum(row[b.floors] for i in group if (b := city[i]) is not None)
    return total


def _longest_run(g: Geometry, harbors: set[int], step: int, length: int) -> int:
    best = 0
    starts = range(g.rows) if step == 1 else range(g.cols)
    for s in starts:
        run = 0
        for k in range(length):
            i = s * g.cols + k if step == 1 else k * g.cols + s
            run = run + 1 if i in harbors else 0
            best = max(best, run)
    return best


def evaluate(
    mode: str,
    city: City,
    inhabitants: int,
    energy: int,
    active: int,
    customers: Mapping[int, int],
    park_energy: Sequence[int],
    *,
    playground_absorbs_pollution: bool = False,
    office_tower_group_cap: int = 5,
    empty_squares_after_removal: bool = True,
) -> ScoreReport:
    """Score one given allocation (plain and direct: the optimiser's answer is re-scored here).

    ``active`` is a bit mask of activated squares (Parks and Monuments are always active).
    Raises InputError for an allocation the rules forbid.
    """
    g = geometry(mode)
    b_at = [b for b in city]
    for i, b in enumerate(b_at):
        if b is not None and b.kind in "PpM":
            active |= 1 << i
    on = [b if b is not None and active >> i & 1 else None for i, b in enumerate(b_at)]
    cap = g.shop_capacity
    for i, n in customers.items():
        b = on[i]
        if b is None or b.kind != "S" or not 0 <= n <= cap:
            raise InputError(f"an activated Shop holds 0 to {cap} customers (square {i})")
    for i in park_energy:
        b = on[i]
        kinds = "Pp" if playground_absorbs_pollution else "P"
        if b is None or b.kind not in kinds:
            raise InputError("only a green Park can hold 1 surplus energy")
    if len(set(park_energy)) != len(park_energy):
        raise InputError("a Park holds at most 1 surplus energy")
    cat = dict.fromkeys(CATEGORIES, 0)
    used_inh = sum(customers.values())
    used_en = len(park_energy)
    districts: set[int] = set()
    harbors: set[int] = set()
    for i, b in enumerate(on):
        if b is None:
            continue
        k = b.kind
        if k in _INHABITANT_USERS:
            used_inh += 1
        if k in _ENERGY_USERS:
            used_en += 1
        nbs = [on[j] for j in g.neighbours[i] if on[j] is not None]
        if k == "T":
            cat["tower_blocks"] += TOWER[b.floors]
        elif k == "S":
            cat["shops"] += SHOP[customers.get(i, 0)]
        elif k == "U":
            districts.add(g.district[i])
            cat["public_services"] += b.vp
        elif k in "Pp":
            counted = "TO" if mode == "expert" else "T"
            cat["parks"] += PARK[sum(1 for n in nbs if n is not None and n.kind in counted)]
        elif k == "F":
            cat["factories"] += sum(FACTORY.get(n.kind, 0) for n in nbs if n is not None)
        elif k == "H":
            harbors.add(i)
            cat["harbors"] += b.vp
        elif k == "M":
            cat["monuments"] += sum(MONUMENT.get(n.kind, 0) for n in nbs if n is not None)
    cat["public_services"] += PUBLIC[len(districts)]
    cat["harbors"] += HARBOR_RUN[_longest_run(g, harbors, 1, g.cols)]
    cat["harbors"] += HARBOR_RUN[_longest_run(g, harbors, g.cols, g.rows)]
    cat["office_towers"] = _office_groups(g, city, active, office_tower_group_cap)
    if used_inh > inhabitants or used_en > energy:
        raise InputError("the allocation uses more inhabitants or energy than the city owns")
    cat["inhabitants_penalty"] = used_inh - inhabitants
    cat["energy_penalty"] = used_en - energy
    inactive = tuple(i for i, b in enumerate(b_at) if b is not None and on[i] is None)
    empty = sum(1 for b in (on if empty_squares_after_removal else b_at) if b is None)
    return ScoreReport(
        mode=mode,
        total=sum(cat.values()),
        categories=cat,
        inhabitants_on_buildings=used_inh,
        empty_squares=empty,
        inactive=inactive,
        customers={i: n for i, n in sorted(customers.items()) if n},
        park_energy=tuple(sorted(park_energy)),
    )


# -- the optimiser ---------------------------------------------------------------------------


def _key(report: ScoreReport) -> int:
    """The lexicographic key of a report: total, then inhabitants on buildings, then -empty."""
    return report.total * W + report.inhabitants_on_buildings * IB - report.empty_squares


def _subsets(items: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """All (mask, inhabitants, energy, key) sums over subsets of branch items."""
    out = [(0, 0, 0, 0)]
    for sq, inh, en, key in items:
        bit = 1 << sq
        out += [(m | bit, a + inh, e + en, v + key) for m, a, e, v in out]
    return out


def _public_dp(
    g: Geometry, units: list[tuple[int, int]]
) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """Best key for j activated Public Services, j = 0..n, with the count taken per district.

    Within a district only the best-valued services are worth taking; across districts the
    (convex) district table couples them, so a DP over districts with state (count, covered).
    """
    by_district: dict[int, list[int]] = {}
    for sq, key in units:
        by_district.setdefault(g.district[sq], []).append(key)
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
    best: list[tuple[int, tuple[tuple[int, int], ...]]] = [(-(1 << 60), ())] * (len(units) + 1)
    for (j, cov), (val, choice) in dp.items():
        cand = val + PUBLIC[cov] * W
        if cand > best[j][0]:
            best[j] = (cand, choice)
    return best


def _solve(
    g: Geometry, city: City, inh: int, en: int, opts: _Options
) -> tuple[int, int, dict[int, int], list[int]]:
    """The best allocation: (key, active mask, customers, park-energy squares)."""
    bc = int.bit_count
    nbm = g.neighbour_mask
    cols = g.cols
    cap = g.shop_capacity
    group_cap = opts.office_tower_group_cap
    eb = 1 if opts.empty_squares_after_removal else 0
    squares: dict[str, list[int]] = {k: [] for k in "TOSUPpFHM"}
    for i, b in enumerate(city):
        if b is not None:
            squares[b.kind].append(i)
    mask = {k: sum(1 << i for i in v) for k, v in squares.items()}
    tm, om, sm, fm, hm, mm = mask["T"], mask["O"], mask["S"], mask["F"], mask["H"], mask["M"]
    pm = mask["P"] | mask["p"]
    green = sorted(squares["P"] + (squares["p"] if opts.playground_absorbs_pollution else []))
    slots = len(green)

    def adj_m(i: int) -> int:
        return bc(nbm[i] & mm)

    floors = [b.floors if b is not None else 0 for b in city]
    fixed = pm | mm
    # -empty_squares = (active buildings) - size, or minus the bare squares (A19 option)
    base = eb * bc(fixed) - (g.size if eb else city.count(None))
    base += W * sum(5 * bc(nbm[m] & pm) for m in squares["M"])
    n_t, n_s, n_o = len(squares["T"]), len(squares["S"]), len(squares["O"])
    branch: list[tuple[int, int, int, int]] = []  # (square, inhabitants, energy, key)
    free_t: list[tuple[int, int]] = []  # (key, square): energy-only, independent
    e_fixed = 0
    if en >= n_t + n_s + n_o:  # energy for every consumer: T and S are always worth it
        fixed |= tm | sm
        e_fixed = n_t + n_s
        base += sum(TOWER[floors[t]] * W + eb for t in squares["T"])
        base += sum(3 * adj_m(s) * W + eb for s in squares["S"])
    else:
        branch += [(s, 0, 1, 3 * adj_m(s) * W + eb) for s in squares["S"]]
        for t in squares["T"]:
            key = TOWER[city[t].floors] * W + eb  # type: ignore[union-attr]
            if nbm[t] & pm:
                branch.append((t, 0, 1, key))
            else:
                free_t.append((key, t))
    branch += [(o, 1, 1, IB + eb) for o in squares["O"]]
    const_items: list[tuple[int, int]] = []  # (key, square): inhabitant-only, independent
    for h in squares["H"]:
        key = (city[h].vp - 5 * adj_m(h)) * W + IB + eb  # type: ignore[union-attr]
        if nbm[h] & (hm | fm):
            branch.append((h, 1, 0, key))
        else:
            const_items.append((key, h))
    branch_mask = sum(1 << b[0] for b in branch)
    var_f: list[tuple[int, int, int, int, int]] = []  # (square, key0, shops, harbours, offices)
    for f in squares["F"]:
        key0 = -5 * adj_m(f) * W + IB + eb
        ns, nh, no = nbm[f] & sm, nbm[f] & hm, nbm[f] & om
        if (ns | nh | no) & branch_mask:
            var_f.append((f, key0, ns, nh, no))
        else:
            const_items.append((key0 + 2 * W * bc(ns & fixed), f))
    units = [
        (u, (city[u].vp + 2 * adj_m(u)) * W + IB + eb)  # type: ignore[union-attr]
        for u in squares["U"]
    ]
    public = _public_dp(g, units)
    const_items.sort(reverse=True)
    cprefix = [0]
    for key, _ in const_items:
        cprefix.append(cprefix[-1] + key)
    cu = [
        max(cprefix[a] + public[t - a][0] for a in range(len(cprefix)) if 0 <= t - a < len(public))
        for t in range(len(cprefix) + len(public) - 1)
    ]
    free_t.sort(reverse=True)
    tprefix = [0]
    for key, _ in free_t:
        tprefix.append(tprefix[-1] + key)
    n_tf = len(free_t)

    # structural part (parks, harbour runs, office groups) of the branched buildings
    park_nbrs = [nbm[p] & (tm | om) for p in squares["P"] + squares["p"]]
    struct_mask = om | tm | (hm & branch_mask)
    not_first = sum(1 << i for i in range(g.size) if i % cols)
    not_last = sum(1 << i for i in range(g.size) if i % cols != cols - 1)

    def structure(act: int) -> int:
        vp = 0
        for pn in park_nbrs:
            vp += PARK[bc(act & pn)]
        h = act & hm
        if h:
            run, v = 0, h
            while v:
                run += 1
                v &= (v >> 1) & not_last
            vp += HARBOR_RUN[run]
            run, v = 0, h
            while v:
                run += 1
                v &= v >> cols
            vp += HARBOR_RUN[run]
        rest = act & om
        while rest:
            comp = rest & -rest
            while True:
                grow = (
                    comp | comp << cols | comp >> cols | (comp << 1) & not_first
                    | (comp >> 1) & not_last
                ) & rest
                if grow == comp:
                    break
                comp = grow
            rest ^= comp
            row = OFFICE[min(bc(comp), group_cap)]
            while comp:
                low = comp & -comp
                vp += row[floors[low.bit_length() - 1]]
                comp ^= low
        return vp * W

    full_shop = SHOP[cap]

    def leftover(x: int, k: int) -> int:
        """Key of x inhabitants left after activation with k active shops (customers first)."""
        c = min(x, k * cap)
        q, r = divmod(c, cap)
        return (q * full_shop + SHOP[r]) * W + IB * c - W * (x - c)

    def inhabitants_part(vals: tuple[int, ...], x0: int, k: int) -> int:
        prefix = [0]
        for v in vals:
            prefix.append(prefix[-1] + v)
        best = -(1 << 62)
        top = min(x0, len(prefix) + len(cu) - 2)
        for t in range(top + 1):
            low, high = max(0, t - len(cu) + 1), min(t, len(vals))
            fu = max(prefix[a] + cu[t - a] for a in range(low, high + 1))
            cand = fu + leftover(x0 - t, k)
            if cand > best:
                best = cand
        return best

    e0 = en - e_fixed
    split = len(branch) // 2
    half_a = [s for s in _subsets(branch[:split]) if s[1] <= inh and s[2] <= e0]
    half_b = [s for s in _subsets(branch[split:]) if s[1] <= inh and s[2] <= e0]
    half_a.sort(key=lambda s: -s[3])
    half_b.sort(key=lambda s: -s[3])
    s_cache: dict[int, int] = {}
    v_cache: dict[int, tuple[int, ...]] = {}
    f_rel = 0
    for _, _, ns, nh, no in var_f:
        f_rel |= ns | nh | no
    i_cache: dict[tuple[tuple[int, ...], int, int], int] = {}
    w2, w3, w4 = 2 * W, 3 * W, 4 * W
    # Bounds (every structural term and the inhabitants part only grow with more buildings
    # active, more shops and better factory values): prune leaves that cannot beat the best.
    every = fixed | branch_mask
    struct_max = structure(every & struct_mask)
    k_max = bc(every & sm)
    vals_max = tuple(sorted(
        [k0 + w2 * bc(every & ns) + w3 * bc(every & nh) + w4 * bc(every & no)
         for _, k0, ns, nh, no in var_f], reverse=True))
    x_low = max(0, inh - sum(b[1] for b in branch))
    inh_ub = {x: inhabitants_part(vals_max, x, k_max) for x in range(x_low, inh + 1)}
    rest_max = struct_max + max(inh_ub.values()) + tprefix[min(max(e0, 0), n_tf)]
    best_key = -(1 << 62)
    best_act = fixed
    # half_b bucketed by energy used, so a leaf never visits combinations it cannot power
    buckets: list[list[tuple[int, int, int, int]]] = [[] for _ in range(max(e0, 0) + 1)]
    for item in half_b:
        buckets[item[2]].append(item)
    for ma, ia, ea, ua in half_a:
        if ua + half_b[0][3] + rest_max <= best_key:
            break
        for bucket in buckets[: e0 - ea + 1]:
            for mb, ib, eb_, ub in bucket:
                if ua + ub + rest_max <= best_key:
                    break
                x0 = inh - ia - ib
                b0 = e0 - ea - eb_
                if x0 < 0 or b0 < 0:
                    continue
                j = b0 if b0 < n_tf else n_tf
                over = b0 - j - slots
                key = ua + ub + tprefix[j] - (W * over if over > 0 else 0)
                if key + struct_max + inh_ub[x0] <= best_key:
                    continue
                act = fixed | ma | mb
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
                    vals = v_cache[fk] = tuple(sorted(
                        [k0 + w2 * bc(act & ns) + w3 * bc(act & nh) + w4 * bc(act & no)
                         for _, k0, ns, nh, no in var_f], reverse=True))
                ik = (vals, x0, k)
                ip = i_cache.get(ik)
                if ip is None:
                    ip = i_cache[ik] = inhabitants_part(vals, x0, k)
                key += ip
                if key > best_key:
                    best_key, best_act = key, act
    # -- rebuild the allocation behind best_key
    act = best_act
    x0 = inh - bc(act & (hm | om))
    b0 = e0 - bc(act & branch_mask & (tm | sm | om))
    k = bc(act & sm)
    i_cache.clear()
    fv = sorted(
        ((k0 + w2 * bc(act & ns) + w3 * bc(act & nh) + w4 * bc(act & no), f)
         for f, k0, ns, nh, no in var_f), reverse=True)
    target = inhabitants_part(tuple(v for v, _ in fv), x0, k)
    done, x_left = False, x0
    for t in range(min(x0, len(fv) + len(cu) - 1) + 1):
        for a in range(max(0, t - len(cu) + 1), min(t, len(fv)) + 1):
            rest = t - a
            for ca in range(len(cprefix)):
                if not 0 <= rest - ca < len(public):
                    continue
                val = sum(v for v, _ in fv[:a]) + cprefix[ca] + public[rest - ca][0]
                if val + leftover(x0 - t, k) == target:
                    act |= sum(1 << f for _, f in fv[:a]) | sum(1 << s for _, s in const_items[:ca])
                    for d, c in public[rest - ca][1]:
                        ranked = sorted((key, u) for u, key in units if g.district[u] == d)
                        act |= sum(1 << u for _, u in ranked[::-1][:c])
                    x_left, done = x0 - t, True
                    break
            if done:
                break
        if done:
            break
    j = min(b0, n_tf)
    act |= sum(1 << t for _, t in free_t[:j])
    customers: dict[int, int] = {}
    c = min(x_left, k * cap)
    for s in squares["S"]:
        if act >> s & 1 and c:
            customers[s] = min(c, cap)
            c -= customers[s]
    return base + best_key, act, customers, green[: max(0, min(b0 - j, slots))]


@lru_cache(maxsize=4096)
def _score(mode: str, city: City, inh: int, en: int, opts: _Options) -> ScoreReport:
    g = geometry(mode)
    key, active, customers, parks = _solve(g, city, inh, en, opts)
    report = evaluate(
        mode,
        city,
        inh,
        en,
        active,
        customers,
        parks,
        playground_absorbs_pollution=opts.playground_absorbs_pollution,
        office_tower_group_cap=opts.office_tower_group_cap,
        empty_squares_after_removal=opts.empty_squares_after_removal,
    )
    if _key(report) != key:  # pragma: no cover - the optimiser and the scorer disagree
        raise AssertionError(f"scorer inconsistency: {_key(report)} != {key}")
    return report


def score_city(
    mode: str,
    city: City,
    inhabitants: int,
    energy: int,
    *,
    playground_absorbs_pollution: bool = False,
    office_tower_group_cap: int = 5,
    empty_squares_after_removal: bool = True,
) -> ScoreReport:
    """Score ``city`` with its best final allocation of ``inhabitants`` and ``energy`` (§8-§12).

    The options are the named resolutions of spec A10 (playgrounds hold surplus energy?),
    A14 (largest Office Tower group row) and A19 (empty squares counted after removal?).
    """
    g = geometry(mode)
    if len(city) != g.size:
        raise InputError(f"a {mode} city has {g.size} squares (got {len(city)})")
    for name, value in (("inhabitants", inhabitants), ("energy", energy)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InputError(f"{name} must be a whole number of at least 0 (got {value!r})")
    if not 1 <= office_tower_group_cap <= 5:
        raise InputError("the Office Tower table has rows for groups of 1 to 5 towers")
    opts = _Options(
        bool(playground_absorbs_pollution),
        int(office_tower_group_cap),
        bool(empty_squares_after_removal),
    )
    return _score(mode, tuple(city), inhabitants, energy, opts)


def rank(reports: Sequence[ScoreReport]) -> tuple[tuple[int, ...], ...]:
    """§13 places, best first: total, then inhabitants on buildings, then fewer empty squares.

    Players equal on all three share a place (indices within a place in seating order).
    """
    places: dict[tuple[int, int, int], list[int]] = {}
    for i, r in enumerate(reports):
        places.setdefault((r.total, r.inhabitants_on_buildings, -r.empty_squares), []).append(i)
    return tuple(tuple(places[k]) for k in sorted(places, reverse=True))


_OPTION_KEYS = {
    "playground_absorbs_pollution": bool,
    "office_tower_group_cap": int,
    "empty_squares_tie_break": str,
}


def score_file(data: Mapping[str, Any]) -> dict[str, Any]:
    """``polis score`` for a formats.md §1.2 city file: the §1.3 report.

    An optional ``options`` object may name the rule resolutions (A10, A14, A19).
    """
    mode, city, inh, en = load_city_file(data)
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise InputError("'options' must be an object")
    for key, value in options.items():
        kind = _OPTION_KEYS.get(key)
        if kind is None or not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise InputError(f"unknown or malformed option {key!r}")
    tie = options.get("empty_squares_tie_break", "after_removal")
    if tie not in ("after_removal", "before_removal"):
        raise InputError("empty_squares_tie_break is 'after_removal' or 'before_removal'")
    report = score_city(
        mode,
        city,
        inh,
        en,
        playground_absorbs_pollution=options.get("playground_absorbs_pollution", False),
        office_tower_group_cap=options.get("office_tower_group_cap", 5),
        empty_squares_after_removal=tie == "after_removal",
    )
    return report.to_json()


__all__ = ["ScoreReport", "evaluate", "rank", "score_city", "score_file"]
