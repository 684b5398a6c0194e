"""The server's threads on one core (`duplicate.affinity`, docs/serving.md): `make run` keeps every thread of
its process on the core ``SERVER_CPU`` names (by default the last one it may use), ``all`` leaves them free,
and a process the server starts (a PDF renderer) gets every core back."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from duplicate import affinity

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))

linux_only = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="affinité : Linux seulement")


@pytest.fixture
def four_cores(monkeypatch, tmp_path):
    """Four cores the process may use, of which the kernel tells nothing (a virtual machine)."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    monkeypatch.setattr(affinity, "CPUS", tmp_path)
    return tmp_path


@linux_only
def test_the_default_core_is_the_last_of_alike_ones(four_cores):
    assert affinity.chosen_cpu(None) == 3
    assert affinity.chosen_cpu("  ") == 3


def _sysfs(root: Path, cpu: int, name: str, value: str) -> None:
    path = root / f"cpu{cpu}" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value + "\n")


@linux_only
def test_the_default_core_is_the_fastest_on_a_hybrid_laptop(four_cores):
    """Two performance cores listed first, two efficiency cores last (as Linux lists an Intel hybrid
    laptop's): the last performance core, by capacity, else by top frequency."""
    for cpu, capacity in ((0, "1024"), (1, "1024"), (2, "460"), (3, "460")):
        _sysfs(four_cores, cpu, "cpu_capacity", capacity)
    assert affinity.chosen_cpu(None) == 1
    for cpu in range(4):
        (four_cores / f"cpu{cpu}" / "cpu_capacity").unlink()
    for cpu, khz in ((0, "4700000"), (1, "4700000"), (2, "3400000"), (3, "3400000")):
        _sysfs(four_cores, cpu, "cpufreq/cpuinfo_max_freq", khz)
    assert affinity.chosen_cpu(None) == 1
    assert [affinity.speed(cpu) for cpu in range(4)] == [4700000, 4700000, 3400000, 3400000]


@linux_only
def test_a_named_core_all_or_a_core_out_of_reach(four_cores):
    assert affinity.chosen_cpu("1") == 1
    assert affinity.chosen_cpu("ALL") is None
    with pytest.raises(ValueError, match=r"SERVER_CPU=7 : ce processus ne peut utiliser que les cœurs \[0, 1, 2, 3\]"):
        affinity.chosen_cpu("7")
    with pytest.raises(ValueError, match="SERVER_CPU=deux : un numéro de cœur ou « all » est attendu"):
        affinity.chosen_cpu(" deux ")


@linux_only
def test_one_core_leaves_the_threads_where_they_are(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {2})
    assert affinity.chosen_cpu(None) is None


def _cores(listed: str) -> frozenset[int]:
    """The kernel's « 0-1,3 » as a set of cores."""
    cores = set()
    for part in listed.split(","):
        first, _, last = part.partition("-")
        cores.update(range(int(first), int(last or first) + 1))
    return frozenset(cores)


def _threads_cores(pid: int) -> dict[int, frozenset[int]]:
    """Each thread of `pid` → the cores it may run on (its ``Cpus_allowed_list``)."""
    cores = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        status = (task / "status").read_text()
        cores[int(task.name)] = _cores(next(line.split(":")[1].strip() for line in status.splitlines()
                                            if line.startswith("Cpus_allowed_list")))
    return cores


@linux_only
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="un seul cœur : rien à épingler")
@pytest.mark.parametrize("setting", [None, "0", "all"])
def test_make_run_keeps_every_thread_on_the_chosen_core(setting):
    from live import LiveServer

    allowed = sorted(os.sched_getaffinity(0))
    expected = {None: max(reversed(allowed), key=affinity.speed), "0": 0, "all": None}[setting]
    with tempfile.TemporaryDirectory() as tmp:
        env = {} if setting is None else {"SERVER_CPU": setting}
        with LiveServer(f"sqlite:///{tmp}/salle.sqlite3", Path(tmp) / "server.log", production=True,
                        threads=4, env=env) as server:
            cores = _threads_cores(server.process.pid)
            printed = (Path(tmp) / "server.log").read_text()
    assert len(cores) >= 5  # the main thread (waitress's loop) and its 4 workers
    if expected is None:
        assert set(cores.values()) == {frozenset(allowed)}, cores
        assert "Ses fils sur le cœur" not in printed
    else:
        assert set(cores.values()) == {frozenset({expected})}, cores
        assert f"Ses fils sur le cœur {expected} (SERVER_CPU=all pour les laisser libres" in printed


def _report_cores(queue) -> None:
    affinity.release()
    queue.put(sorted(os.sched_getaffinity(0)))


@linux_only
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="un seul cœur : rien à épingler")
def test_a_process_the_pinned_server_starts_gets_every_core_back():
    """Run in a child of its own so that the test process keeps its cores: pinned, it starts a renderer
    the way `printing.batch` does (spawn), which releases itself."""
    script = ("import multiprocessing, os, sys\n"
              "sys.path[:0] = [sys.argv[1], sys.argv[2]]\n"
              "from duplicate import affinity\n"
              "import test_affinity\n"
              "if __name__ == '__main__':\n"
              "    affinity.pin_process(0)\n"
              "    queue = multiprocessing.get_context('spawn').Queue()\n"
              "    child = multiprocessing.get_context('spawn').Process(target=test_affinity._report_cores, args=(queue,))\n"
              "    child.start(); print(sorted(os.sched_getaffinity(0)), queue.get(timeout=60)); child.join(60)\n")
    done = subprocess.run([sys.executable, "-c", script, str(REPO), str(REPO / "tests")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("] [") == ["[0", ", ".join(map(str, sorted(os.sched_getaffinity(0)))) + "]\n"]


def test_nothing_changes_without_affinity(monkeypatch):
    """Windows and macOS have no `os.sched_setaffinity`: the server runs as before."""
    monkeypatch.delattr(os, "sched_setaffinity", raising=False)
    assert affinity.chosen_cpu(None) is None
    affinity.release()  # no AttributeError


@linux_only
def test_a_wrong_server_cpu_stops_make_run_with_a_french_message(app, monkeypatch):
    import click

    from duplicate import serving

    monkeypatch.setattr(serving, "make_server", lambda *a: pytest.fail("served despite a wrong SERVER_CPU"))
    app.config["SERVER_CPU"] = "deux"
    before = os.sched_getaffinity(0)
    with pytest.raises(click.ClickException, match="SERVER_CPU=deux : un numéro de cœur ou « all » est attendu"):
        serving.serve(app, "127.0.0.1", 0, 4)
    assert os.sched_getaffinity(0) == before  # refused before anything was pinned


@linux_only
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="un seul cœur : rien à épingler")
def test_a_system_that_refuses_affinity_still_serves(app, monkeypatch, capsys):
    """A sandbox (a container's seccomp profile) may refuse `sched_setaffinity`: the server says so once and
    serves with its threads free."""
    from duplicate import serving

    served = []

    class Server:
        def run(self):
            served.append(True)

    def refuse(pid, cpus):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "sched_setaffinity", refuse)
    monkeypatch.setattr(serving, "make_server", lambda *args: Server())
    serving.serve(app, "127.0.0.1", 0, 4)
    printed = capsys.readouterr().out
    assert served == [True]
    assert "Ses fils restent libres : le système refuse de les garder sur un cœur (Operation not permitted)." in printed
    assert "Ses fils sur le cœur" not in printed
