"""Special moves per position, found by a search (the generalisation of the FFT tables).

The FFT booklet (seed ``fft-fascicule-free-play-ocr.txt``, « Pour les autres nombres de tables,
certains mouvements sont spéciaux ») lists, for 6, 8, 9, 10, 12… tables, the positions where South,
East or West move by another amount than +1, +2, −2.  Those tables are for free play (no étuis).
For duplicate the étuis are a fifth line that must not meet any player twice, so we searched again.

Each entry below is, for one table count T (tables numbered 1..T, arithmetic mod T), the cumulative
offsets « S.E.W.B » of South, East, West and of the étuis at each position (North stays, all offsets
are 0 at the first position): the player of line L who started at table x sits at table
x + offset_L, and the étuis that started at table x are at table x + offset_B.  Every entry is
checked by the tests (the ten differences between lines are one-to-one).  Only counts where the
Rainbow and field arithmetic fall short are stored.

Regenerate with ``python -m duplicate.core.movements.offset_tables T [budget] [seeds]``: a
depth-first search with a deterministic xorshift order (no ``random``, so the result is the same on
every machine) that stops after ``budget`` nodes per seed and keeps the longest clean prefix.
"""

from __future__ import annotations

import sys

__all__ = ["OFFSET_TABLES", "search", "check_offsets"]

#: T → "S.E.W.B S.E.W.B …" (one group per position).
OFFSET_TABLES: dict[int, str] = {
    6: "0.0.0.0 4.2.1.3 1.3.5.2 2.1.4.5 3.4.2.1",  # 5 positions
    10: "0.0.0.0 1.7.8.2 8.6.4.5 7.9.1.3 5.8.3.9 9.3.2.1 3.2.5.8 4.5.9.7 6.1.7.4",  # 9 positions
    12: "0.0.0.0 5.3.1.2 7.8.11.1 6.9.8.4 9.6.7.10 4.11.5.9 11.7.4.3 8.10.2.7 10.4.9.6 3.2.10.5",  # 10 positions
    14: "0.0.0.0 7.13.12.1 3.5.7.2 9.10.11.4 12.2.13.3 5.3.8.6 10.6.4.12 4.12.1.7 11.4.10.9 6.9.2.13 8.7.3.5",  # 11 positions
    15: "0.0.0.0 2.7.12.1 7.11.4.2 1.13.8.3 8.2.13.4 14.6.5.7 13.8.14.11 10.1.3.14 6.9.10.13 11.12.9.8 5.3.1.10 3.14.2.9",  # 12 positions
    18: "0.0.0.0 9.8.10.1 1.10.15.2 15.3.6.4 17.11.2.5 7.2.17.6 5.12.11.3 8.1.5.16 4.5.12.8 6.9.4.17 14.4.16.10 10.6.14.13 12.14.7.9 3.7.8.12 2.17.9.15",  # 15 positions
    20: "0.0.0.0 1.18.11.2 14.5.3.1 5.11.18.3 13.7.19.5 17.12.2.6 4.8.5.7 12.10.6.16 18.6.9.8 16.3.4.11 9.14.8.17 3.2.7.19 7.19.10.4 19.1.16.12 8.9.15.10 15.4.13.14",  # 16 positions
    21: "0.0.0.0 8.7.17.1 1.4.12.2 2.13.18.4 9.19.13.5 19.16.1.3 20.14.5.6 10.12.11.7 13.11.9.8 5.1.15.18 7.15.19.16 4.5.6.10 16.20.10.19 17.8.3.11 15.3.20.13 3.10.2.14 12.18.4.20",  # 17 positions
    22: "0.0.0.0 14.5.13.1 5.21.9.2 13.1.8.3 3.2.21.6 11.14.1.4 4.9.15.14 21.11.2.10 10.16.17.8 18.4.6.12 19.8.11.5 8.15.5.9 17.10.3.21 6.7.12.13 9.6.10.15 20.12.7.19 16.20.14.11 2.19.18.7",  # 18 positions
    24: "0.0.0.0 5.6.14.1 18.10.17.2 11.20.21.3 4.19.22.5 1.3.9.4 14.18.11.7 2.7.3.6 8.4.19.10 12.11.1.9 13.23.4.8 9.16.13.18 15.9.8.20 21.14.2.19 17.5.7.23 10.21.16.17 7.13.23.21 3.1.5.15 20.17.15.14",  # 19 positions
    26: "0.0.0.0 23.6.5.1 4.16.10.2 7.9.23.3 17.15.1.4 10.3.11.5 12.4.14.9 16.5.20.6 24.12.18.8 14.10.19.7 15.21.6.14 11.8.4.17 5.25.12.10 19.18.15.22 8.13.17.16 6.19.9.18 3.7.2.21 1.17.24.15 18.2.7.12 9.20.22.11 2.23.16.13",  # 21 positions
    28: "0.0.0.0 19.10.24.1 1.25.7.2 13.18.26.4 8.17.23.5 6.19.18.8 25.1.4.3 21.22.16.7 12.5.1.15 14.13.6.9 18.12.17.6 22.8.12.14 23.2.11.22 4.15.5.12 26.21.22.16 3.9.25.10 9.7.20.18 10.26.13.25 11.3.15.24 2.4.21.13 5.23.2.26 27.16.8.23 17.27.10.11",  # 23 positions
}


def check_offsets(tables: int, offsets: list[tuple[int, int, int, int]]) -> bool:
    """True when the ten line differences are one-to-one over the positions (mod ``tables``)."""
    seen: list[set[int]] = [set() for _ in range(10)]
    for s, e, w, b in offsets:
        values = (s, e, w, b, s - e, s - w, s - b, e - w, e - b, w - b)
        for i, v in enumerate(values):
            v %= tables
            if v in seen[i]:
                return False
            seen[i].add(v)
    return True


def search(tables: int, target: int, budget: int = 50_000, seed: int = 1) -> list[tuple[int, int, int, int]]:
    """Depth-first search for ``target`` positions; returns the longest clean list found."""
    t = tables
    used = [[False] * t for _ in range(10)]
    points: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)]
    best = [list(points)]
    nodes = [0]
    state = [(seed * 2654435761) % 2 ** 32 or 1]

    def rnd() -> int:
        x = state[0]
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        state[0] = x
        return x

    def order() -> list[int]:
        items = list(range(t))
        for i in range(t - 1, 0, -1):
            j = rnd() % (i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def mark(v: tuple[int, int, int, int], flag: bool) -> None:
        s, e, w, b = v
        for i, x in enumerate((s, e, w, b, s - e, s - w, s - b, e - w, e - b, w - b)):
            used[i][x % t] = flag

    mark(points[0], True)

    def dfs() -> bool:
        if len(points) > len(best[0]):
            best[0] = list(points)
        if len(points) >= target:
            return True
        nodes[0] += 1
        if nodes[0] > budget:
            return False
        u0, u1, u2, u3, u4, u5, u6, u7, u8, u9 = used
        for s in order():
            if u0[s]:
                continue
            for e in order():
                if u1[e] or u4[(s - e) % t]:
                    continue
                for w in order():
                    if u2[w] or u5[(s - w) % t] or u7[(e - w) % t]:
                        continue
                    for b in range(t):
                        if u3[b] or u6[(s - b) % t] or u8[(e - b) % t] or u9[(w - b) % t]:
                            continue
                        v = (s, e, w, b)
                        mark(v, True)
                        points.append(v)
                        if dfs():
                            return True
                        points.pop()
                        mark(v, False)
                        if nodes[0] > budget:
                            return False
        return False

    dfs()
    return best[0]


def _main(argv: list[str]) -> None:   # pragma: no cover - offline tool
    tables = int(argv[0])
    budget = int(argv[1]) if len(argv) > 1 else 50_000
    seeds = int(argv[2]) if len(argv) > 2 else 10
    best: list[tuple[int, int, int, int]] = []
    for seed in range(1, seeds + 1):
        found = search(tables, tables, budget, seed)
        if len(found) > len(best):
            best = found
    print(f"    {tables}: \"" + " ".join(".".join(map(str, v)) for v in best) + "\",  # "
          f"{len(best)} positions")


if __name__ == "__main__":   # pragma: no cover
    _main(sys.argv[1:])
