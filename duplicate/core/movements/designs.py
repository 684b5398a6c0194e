"""Translation designs: the arithmetic behind the individual movements (SPEC §7).

Rule (seed ``fft-fascicule-free-play-ocr.txt``, « Mouvement normal FFT »; seed
``duplicate-tournaments.txt`` for the étuis): North stays at its table, South goes up one table, East
up two, West down two, and the étuis go down one table per position (the Rainbow).  Five « lines »
move — N, S, E, W and the sets of étuis — and a movement has no repeat when no two lines meet twice
in the same pair: a player never sees an étui twice, two players never meet twice.

We write every such movement as a *translation design*: the tables are the elements of a finite
abelian group G (here Z_m1 × Z_m2 × …, tables numbered by mixed radix + 1); at position p each line
L has an offset c_L(p) ∈ G (c_N = 0 and every offset is 0 at the first position); the entrant of line
L who started at table x sits at table x + c_L(p).  Two lines L, M meet as the same pair again iff
c_L − c_M takes the same value at two positions, so the design is clean iff the ten maps
p ↦ c_S, c_E, c_W, c_B, c_S − c_E, … , c_W − c_B are one-to-one.  Then:

* **Rainbow** — G = Z_T, offsets (p, 2p, −2p, −p); clean for T / max(gcd(T,3), gcd(T,4)) positions,
  that is all T positions when gcd(T, 6) = 1 (the FFT list 5, 7, 11, 13…);
* **field arithmetic** — T = q a prime power ≥ 5: G = GF(q) with offsets a_L·π for four distinct
  non-zero a_L and π running over GF(q): clean for q positions (8, 9, 16, 25, 27…);
* **special moves** — for the other counts an offset table found by a search (``offset_tables``),
  the generalisation of the FFT tables of special moves per position;
* **products** — G1 × G2 with every pair of positions: P1·P2 positions on T1·T2 tables;
* **sections** — independent sub-movements on consecutive tables, each with its own étuis
  (``Layout`` with several parts); the position count is the smaller of the two.

Choices where the seeds are silent: when several methods reach the asked number of positions we
prefer, in this order, the Rainbow, field arithmetic, the stored special moves, a product, then
sections; sections have two parts at most.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import gcd, isqrt

from .offset_tables import OFFSET_TABLES

__all__ = [
    "Design", "Layout", "rainbow_limit", "rainbow", "field_design", "product", "searched",
    "candidates", "best_positions", "layout_for", "prime_power",
]

Offsets = tuple[int, int, int, int]   # encoded group elements for S, E, W, B


@lru_cache(maxsize=None)
def _sub_table(mods: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    order = 1
    for m in mods:
        order *= m
    digits = [_decode(x, mods) for x in range(order)]
    return tuple(tuple(_encode(tuple((a - b) % m for a, b, m in zip(digits[x], digits[y], mods)), mods)
                       for y in range(order)) for x in range(order))


def _decode(x: int, mods: tuple[int, ...]) -> tuple[int, ...]:
    out = []
    for m in reversed(mods):
        out.append(x % m)
        x //= m
    return tuple(reversed(out))


def _encode(digits: tuple[int, ...], mods: tuple[int, ...]) -> int:
    x = 0
    for d, m in zip(digits, mods):
        x = x * m + d
    return x


@dataclass(frozen=True)
class Design:
    """A translation design over G = Z_m1 × … (see the module docstring)."""

    mods: tuple[int, ...]
    offsets: tuple[Offsets, ...]
    method: str

    @property
    def tables(self) -> int:
        order = 1
        for m in self.mods:
            order *= m
        return order

    @property
    def positions(self) -> int:
        return len(self.offsets)

    def sub(self, x: int, y: int) -> int:
        """x − y in the group (encoded elements)."""
        return _sub_table(self.mods)[x][y]

    def add(self, x: int, y: int) -> int:
        return self.sub(x, self.sub(0, y))

    def truncate(self, positions: int) -> "Design":
        return Design(self.mods, self.offsets[:positions], self.method)

    def clean_prefix(self) -> int:
        """How many leading positions are free of any repeat (the ten forms one-to-one)."""
        seen: list[set[int]] = [set() for _ in range(10)]
        for count, (s, e, w, b) in enumerate(self.offsets):
            sub = _sub_table(self.mods)
            values = (s, e, w, b, sub[s][e], sub[s][w], sub[s][b], sub[e][w], sub[e][b], sub[w][b])
            if any(v in seen[i] for i, v in enumerate(values)):
                return count
            for i, v in enumerate(values):
                seen[i].add(v)
        return len(self.offsets)


@dataclass(frozen=True)
class Layout:
    """One or more designs side by side (sections); tables and étui sets numbered in order."""

    parts: tuple[Design, ...]

    @property
    def tables(self) -> int:
        return sum(p.tables for p in self.parts)

    @property
    def positions(self) -> int:
        return min(p.positions for p in self.parts)

    @property
    def method(self) -> str:
        if len(self.parts) == 1:
            return self.parts[0].method
        sizes = " + ".join(str(p.tables) for p in self.parts)
        return f"sections ({sizes} tables : " + " ; ".join(p.method for p in self.parts) + ")"

    def truncate(self, positions: int) -> "Layout":
        return Layout(tuple(p.truncate(positions) for p in self.parts))


def rainbow_limit(tables: int) -> int:
    """Positions the plain Rainbow plays without any repeat: T / max(gcd(T,3), gcd(T,4))."""
    return tables // max(gcd(tables, 3), gcd(tables, 4))


def rainbow(tables: int) -> Design:
    """N fixe, S +1, E +2, O −2, étuis −1 — truncated to its clean positions."""
    t = tables
    offsets = tuple((p % t, 2 * p % t, -2 * p % t, -p % t) for p in range(rainbow_limit(t)))
    return Design((t,), offsets, "Rainbow FFT (N fixe, S +1, E +2, O −2, étuis −1)")


def prime_power(n: int) -> tuple[int, int] | None:
    """(p, k) when n = p**k with p prime and k ≥ 1, else None."""
    if n < 2:
        return None
    p = next(d for d in range(2, n + 1) if n % d == 0)
    k = 0
    while n % p == 0:
        n //= p
        k += 1
    return (p, k) if n == 1 else None


def _poly_mul(a: tuple[int, ...], b: tuple[int, ...], modulus: tuple[int, ...], p: int) -> tuple[int, ...]:
    """Product of two polynomials (coefficients, lowest degree first) modulo a monic polynomial."""
    k = len(modulus) - 1
    prod = [0] * (2 * k)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                prod[i + j] = (prod[i + j] + x * y) % p
    for deg in range(2 * k - 1, k - 1, -1):
        c = prod[deg]
        if c:
            for j in range(k + 1):
                prod[deg - k + j] = (prod[deg - k + j] - c * modulus[j]) % p
    return tuple(prod[:k])


@lru_cache(maxsize=None)
def _field(p: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Multiplication table of GF(p**k), elements encoded in base p (coefficient of x^(k−1) first)."""
    q = p ** k
    elements = [tuple(reversed(_decode(x, (p,) * k))) for x in range(q)]   # lowest degree first
    for tail in range(p ** k):
        modulus = tuple(reversed(_decode(tail, (p,) * k))) + (1,)
        if k > 1 and modulus[0] == 0:
            continue
        table = [[_encode(tuple(reversed(_poly_mul(a, b, modulus, p))), (p,) * k) for b in elements]
                 for a in elements]
        if all(table[a][b] for a in range(1, q) for b in range(1, q)):
            return tuple(tuple(row) for row in table)
    raise AssertionError("no irreducible polynomial")   # pragma: no cover - always exists


def field_design(q: int) -> Design:
    """GF(q) arithmetic, q a prime power ≥ 5: q positions without any repeat."""
    p, k = prime_power(q) or (0, 0)
    if not p or q < 5:
        raise ValueError(f"{q} n’est pas une puissance d’un nombre premier ≥ 5")
    if k == 1:   # a prime field: the Rainbow itself
        return Design((q,), tuple((x % q, 2 * x % q, -2 * x % q, -x % q) for x in range(q)),
                      "Rainbow FFT (N fixe, S +1, E +2, O −2, étuis −1)")
    mul = _field(p, k)
    return Design((p,) * k, tuple((mul[1][x], mul[2][x], mul[3][x], mul[4][x]) for x in range(q)),
                  f"arithmétique du corps à {q} éléments")


def product(first: Design, second: Design) -> Design:
    """The direct product: every pair of positions, on |G1|·|G2| tables."""
    n = second.tables
    offsets = tuple(tuple(a * n + b for a, b in zip(o1, o2)) for o1 in first.offsets for o2 in second.offsets)
    return Design(first.mods + second.mods, offsets,  # type: ignore[arg-type]
                  f"produit ({first.tables} × {second.tables} tables)")


def searched(tables: int) -> Design | None:
    """The stored special moves for this table count (found by ``offset_tables.search``), if any."""
    text = OFFSET_TABLES.get(tables)
    if text is None:
        return None
    offsets = tuple(tuple(int(v) for v in item.split(".")) for item in text.split())
    return Design((tables,), offsets, "mouvements spéciaux par position (table FFT généralisée)")  # type: ignore[arg-type]


def _trivial(tables: int) -> Design:
    return Design((tables,), ((0, 0, 0, 0),), "une seule position")


@lru_cache(maxsize=None)
def _single_candidates(tables: int) -> tuple[tuple[int, str, tuple], ...]:
    """(positions, method key, args) for one-part designs, in order of preference."""
    out: list[tuple[int, str, tuple]] = [(rainbow_limit(tables), "rainbow", ())]
    pk = prime_power(tables)
    if pk and tables >= 5 and pk[1] > 1:
        out.append((tables, "field", ()))
    stored = searched(tables)
    if stored is not None:
        out.append((stored.positions, "searched", ()))
    for a in range(2, isqrt(tables) + 1):
        if tables % a == 0:
            b = tables // a
            out.append((best_single(a) * best_single(b), "product", (a, b)))
    return tuple(out)


@lru_cache(maxsize=None)
def best_single(tables: int) -> int:
    if tables < 5:
        return 1
    return max(c[0] for c in _single_candidates(tables))


@lru_cache(maxsize=None)
def _build_single(tables: int) -> Design:
    """The best one-part design for this table count (all its clean positions)."""
    if tables < 5:
        return _trivial(tables)
    best = max(_single_candidates(tables), key=lambda c: c[0])
    return _make(tables, best[1], best[2])


def _make(tables: int, key: str, args: tuple) -> Design:
    if key == "rainbow":
        return rainbow(tables)
    if key == "field":
        return field_design(tables)
    if key == "searched":
        design = searched(tables)
        assert design is not None
        return design
    a, b = args
    return product(_build_single(a), _build_single(b))


def candidates(tables: int) -> list[tuple[int, str, tuple]]:
    """Every way we know for this table count: (positions, key, args), preferred first."""
    out = list(_single_candidates(tables)) if tables >= 5 else []
    for a in range(5, tables // 2 + 1):
        out.append((min(best_single(a), best_single(tables - a)), "sections", (a, tables - a)))
    return out


@lru_cache(maxsize=None)
def best_positions(tables: int) -> int:
    """The most positions without any repeat that our methods reach with fixed orientations."""
    found = [c[0] for c in candidates(tables)]
    return max(found) if found else 1


def layout_for(tables: int, positions: int) -> Layout | None:
    """A clean layout with at least ``positions`` positions (truncated to it), or None."""
    for reach, key, args in candidates(tables):
        if reach >= positions:
            if key == "sections":
                parts = tuple(_build_single(n).truncate(positions) for n in args)
                return Layout(parts)
            return Layout((_make(tables, key, args).truncate(positions),))
    return None
