"""The server's threads on one core.

CPython runs Python code on one core at a time (the interpreter's lock, the GIL). When a process's
threads may run on every core, each hand-over of the interpreter moves the work to another core, whose
caches hold none of it: on this project's 2-core machine, 150 tables' phones sending within one second
cost 15.5–17.0 ms of server CPU per request with the threads free, 4.2–5.6 ms with every thread on one
core, and the writes' p95 fell from 3.3 s to 0.7–0.9 s (`bench/bench_table_load.py`, docs/real-time.md,
28 November 2026). So `make run` keeps its threads on one core (Linux; elsewhere nothing changes).

``SERVER_CPU`` (environment or config) chooses it: a core's number, or ``all`` to leave the threads free.
By default, the fastest core the process may use — the kernel's ``cpu_capacity``, else the core's top
frequency (a hybrid laptop lists its efficiency cores last) — and among equals the last one (on this
machine, one pair of runs: 4.2 ms a request on core 1, 5.6 ms on core 0). The processes the server starts (the PDF renderers) get
every core back: they are not the server.
"""

from __future__ import annotations

import os
from pathlib import Path

ALL = "all"
CPUS = Path("/sys/devices/system/cpu")


def speed(cpu: int) -> int:
    """How fast core `cpu` is, as the kernel tells it (``cpu_capacity``, else ``cpuinfo_max_freq``); 0 when
    it does not (a virtual machine): then every core is alike."""
    for name in ("cpu_capacity", "cpufreq/cpuinfo_max_freq"):
        try:
            return int((CPUS / f"cpu{cpu}" / name).read_text())
        except (OSError, ValueError):
            continue
    return 0


def chosen_cpu(setting: str | None) -> int | None:
    """The core the server's threads run on, or None to leave them free (``SERVER_CPU=all``, one core
    only, or a system without affinity). Raises ValueError on a core the process may not use."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    if setting is not None and setting.strip().lower() == ALL:
        return None
    if setting is None or not setting.strip():
        return max(reversed(allowed), key=speed) if len(allowed) > 1 else None
    try:
        cpu = int(setting)
    except ValueError:
        raise ValueError(f"SERVER_CPU={setting.strip()} : un numéro de cœur ou « all » est attendu") from None
    if cpu not in allowed:
        raise ValueError(f"SERVER_CPU={cpu} : ce processus ne peut utiliser que les cœurs {allowed}")
    return cpu


def pin_server(setting) -> tuple[int | None, OSError | None]:
    """Keep every thread of this process — and those it starts later — on the core ``setting`` chooses
    (`chosen_cpu`, ``SERVER_CPU``): ``(core, None)``; ``(None, None)`` when they stay free (``all``, one
    core, no affinity here); ``(None, refusal)`` when the system refuses it (a container's sandbox): the
    server then runs with its threads free. ValueError (French) on a wrong setting."""
    cpu = chosen_cpu(None if setting is None else str(setting))
    if cpu is None:
        return None, None
    try:
        pin_process(cpu)
    except OSError as error:
        return None, error
    return cpu, None


def pin_process(cpu: int) -> None:
    """Every thread of this process (the calling one among them) on core `cpu`; the threads started later
    inherit it."""
    for task in Path("/proc/self/task").iterdir():
        try:
            os.sched_setaffinity(int(task.name), {cpu})
        except ProcessLookupError:  # a thread that ended meanwhile
            pass


def release() -> None:
    """In a process the server started: every core back (the kernel keeps those the system allows)."""
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, range(os.cpu_count() or 1))
        except OSError:
            pass
