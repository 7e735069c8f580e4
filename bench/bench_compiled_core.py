"""Bench (not a test): the compiled build beside the pure one and smatch 1.0.4.

The compiled build is what ``pip install .`` makes where a C compiler works
(``setup.py``: mypyc compiles reading, standardising, canonical numbering
and the plain search): a wheel is built from this checkout's packages and
installed into ``--site`` (``/tmp/amrcheck-bench/compiled-site``; kept, so later runs
reuse it; ``--rebuild`` builds it again). The pure build is the same
install with ``AMRCHECK_PURE_PYTHON=1`` (the ``.py`` sources beside the
compiled modules): the two differ by the compilation alone. Every run is a
whole process, one job, in ``/tmp`` (so no checkout is imported):

* **smatch**: ``amrcheck score REF CAND --jobs 1`` (strict, and
  ``--compat smatch-1.0.4``), compiled and pure, beside
  ``smatch.py --ms --significant 6 -f CAND REF`` (smatch 1.0.4, ``-r 4``),
  on ``--pairs`` unrelated pairs (``bench/workloads.py``); tools
  alternate, median wall and CPU seconds of ``--runs``, mean F1;
* **rematch**: ``--metric rematch``, compiled and pure, beside the
  reference rematch (``--rematch-reference DIR``: DIR/run_rematch.py, see
  bench/RESULTS.md; never part of the repository);
* **first run**: the compiled build's first ``amrcheck score`` of 5,000
  pairs with empty amrcheck and numba caches (a fresh install);
* **profile**: ``bench/profile_metrics.py --metrics smatch`` on each build
  (in-process phases, and the floor: a process that only reads).

With ``--venv DIR`` every tool runs under the python of a clean virtual
environment (made in DIR once, from the package index: amrcheck's
dependencies, smatch 1.0.4 and the reference rematch's imports), as on a
fresh machine after ``pip install .``. Without it they run under this
interpreter, whose site-packages may run ``.pth`` files at every start (on
this project's machines: the editable install's finder and the sandbox's
certificate hook, ≈ 40 ms CPU a process, paid by every tool alike).

    python bench/workloads.py --pairs 5000 && python bench/workloads.py --pairs 20000
    python bench/bench_compiled_core.py [--pairs 5000 20000] [--runs 3]
        [--rematch-reference /tmp/rematch-ref] [--venv /tmp/amrcheck-bench/venv]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tomllib

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from workloads import unrelated  # noqa: E402

WORK = Path("/tmp/amrcheck-bench")
#: the modules setup.py compiles (checked loaded compiled in --site)
COMPILED = [
    "amrcheck.canonical",
    "amrcheck.standardize",
    "amrcheck.reading._parse",
    "amrcheck.metrics._search",
    "amrcheck.metrics._encoding",
    "amrcheck.metrics._motifs",
    "amrcheck.metrics._align",
    "amrcheck.metrics._smatch_core",
    "amrcheck.reading.corpus",
    "amrcheck.pairing.streaming",
]


def build(site: Path, rebuild: bool) -> float | None:
    """Install the compiled build into ``site``; its build's wall seconds
    (None when an earlier one is reused)."""
    if (site / "amrcheck").is_dir() and not rebuild:
        return None
    shutil.rmtree(site, ignore_errors=True)
    with tempfile.TemporaryDirectory() as folder:
        source, out = Path(folder, "source"), Path(folder, "dist")
        listed = subprocess.run(
            [
                "git",
                "ls-files",
                "-co",
                "--exclude-standard",
                "-z",
                "--",
                "amrcheck",
                "amr_lsp",
                "setup.py",
                "pyproject.toml",
                "README.md",
                "LICENSE",
                "MANIFEST.in",
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split("\0")
        for name in filter(None, listed):
            if (REPO / name).is_file():
                (source / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(REPO / name, source / name)
        start = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "build",
                "--wheel",
                "--no-isolation",
                "--outdir",
                str(out),
                str(source),
            ],
            check=True,
            capture_output=True,
            env={**os.environ, "AMRCHECK_COMPILE": "1"},
        )
        seconds = time.perf_counter() - start
        (wheel,) = out.glob("*.whl")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--no-deps",
                "--no-index",
                "--disable-pip-version-check",
                "--target",
                str(site),
                str(wheel),
            ],
            check=True,
            capture_output=True,
        )
    return seconds


#: what the reference rematch imports besides smatch 1.0.4's ``amr`` module
REMATCH_REFERENCE_NEEDS = ["networkx", "pandas"]


def clean_python(venv: Path) -> Path:
    """The python of ``venv``, a virtual environment made (once) with only
    amrcheck's dependencies and the peers' (versions as
    ``scripts/constraints.txt`` pins them)."""
    python = venv / "bin" / "python"
    if python.exists():
        return python
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    needs = [
        *project["dependencies"],
        *project["optional-dependencies"]["bench"],
        *REMATCH_REFERENCE_NEEDS,
    ]
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-c",
            str(REPO / "scripts" / "constraints.txt"),
            *needs,
        ],
        check=True,
    )
    return python


def environment(site: Path, pure: bool, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "AMRCHECK_PURE_PYTHON"}
    env["PYTHONPATH"] = str(site)
    if pure:
        env["AMRCHECK_PURE_PYTHON"] = "1"
    return {**env, **extra}


def timed(
    command: list[str], env: dict[str, str]
) -> tuple[float, float, str, float]:
    """Wall seconds, CPU seconds (user + system), stdout and peak memory (MB
    resident) of one process. On this project's VMs every fresh page costs
    CPU (the kernel zeroes it), so the peak is reported beside the time."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, env=env, cwd="/tmp")
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status):
            raise SystemExit(f"failed: {' '.join(command)}\n{err.read().decode()}")
        cpu = usage.ru_utime + usage.ru_stime
        return wall, cpu, out.read().decode(), usage.ru_maxrss / 1024


def _check_loaded(site: Path) -> None:
    script = "import sys, importlib\n" + "".join(
        f"importlib.import_module({m!r}); print(sys.modules[{m!r}].__file__)\n"
        for m in COMPILED
    )
    for pure in (False, True):
        out = timed([sys.executable, "-c", script], environment(site, pure))[2]
        files = out.split()
        assert all(f.endswith(".py") == pure for f in files), files


def _mean_f1(path: Path) -> float:
    with path.open() as handle:
        return statistics.fmean(
            float(row["f1"]) for row in csv.DictReader(handle, delimiter="\t")
        )


def _smatch_mean_f1(text: str) -> float:
    return statistics.fmean(
        float(line.split()[1])
        for line in text.splitlines()
        if line.startswith("F-score")
    )


def _alternate(
    tools: dict[str, tuple[list[str], dict[str, str]]], runs: int
) -> dict[str, tuple[float, float, str, float]]:
    """Median wall and CPU seconds of each tool, runs alternating (load from
    other processes hits all alike); the last run's stdout; the largest
    peak memory (MB)."""
    walls: dict[str, list[float]] = {name: [] for name in tools}
    cpus: dict[str, list[float]] = {name: [] for name in tools}
    last: dict[str, str] = {}
    peaks: dict[str, float] = dict.fromkeys(tools, 0.0)
    for _ in range(runs):
        for name, (command, env) in tools.items():
            wall, cpu, last[name], peak = timed(command, env)
            walls[name].append(wall)
            cpus[name].append(cpu)
            peaks[name] = max(peaks[name], peak)
    return {
        name: (
            statistics.median(walls[name]),
            statistics.median(cpus[name]),
            last[name],
            peaks[name],
        )
        for name in tools
    }


def _score(site: Path, ref: Path, cand: Path, out: Path, *options: str) -> list[str]:
    script = site / "bin" / "amrcheck"
    return [
        sys.executable,
        str(script),
        "score",
        str(ref),
        str(cand),
        "--jobs",
        "1",
        "--per-pair",
        str(out),
        "-q",
        *options,
    ]


def smatch_table(site: Path, pairs: list[int], runs: int) -> None:
    smatch_py = shutil.which("smatch.py", path=str(Path(sys.executable).parent))
    if smatch_py is None:
        raise SystemExit("needs smatch.py: pip install smatch==1.0.4 (the bench extra)")
    print(
        "| workload | tool | CPU s | wall s | × smatch 1.0.4, CPU (wall) | mean F1 "
        "| peak MB |"
    )
    print("|---|---|---|---|---|---|---|")
    for count in pairs:
        cand, ref = unrelated(count)
        tsv = {k: WORK / f"core-{count}-{k}.tsv" for k in ("c", "cc", "p", "pc")}
        tools = {
            "smatch 1.0.4 `-r 4`": (
                [
                    sys.executable,
                    smatch_py,
                    "--ms",
                    "--significant",
                    "6",
                    "-f",
                    str(cand),
                    str(ref),
                ],
                dict(os.environ),
            ),
            "amrcheck compiled, strict": (
                _score(site, ref, cand, tsv["c"]),
                environment(site, pure=False),
            ),
            "amrcheck pure, strict": (
                _score(site, ref, cand, tsv["p"]),
                environment(site, pure=True),
            ),
            "amrcheck compiled, `--compat smatch-1.0.4`": (
                _score(site, ref, cand, tsv["cc"], "--compat", "smatch-1.0.4"),
                environment(site, pure=False),
            ),
            "amrcheck pure, `--compat smatch-1.0.4`": (
                _score(site, ref, cand, tsv["pc"], "--compat", "smatch-1.0.4"),
                environment(site, pure=True),
            ),
        }
        found = _alternate(tools, runs)
        f1s = {
            name: _mean_f1(tsv[key])
            for name, key in zip(list(tools)[1:], ("c", "p", "cc", "pc"), strict=True)
        }
        base = found["smatch 1.0.4 `-r 4`"]
        f1s["smatch 1.0.4 `-r 4`"] = _smatch_mean_f1(base[2])
        for name, (wall, cpu, _, peak) in found.items():
            print(
                f"| unrelated {count:,} | {name} | {cpu:.2f} | {wall:.2f} "
                f"| **{base[1] / cpu:.1f}×** ({base[0] / wall:.1f}×) "
                f"| {f1s[name]:.4f} | {peak:.0f} |",
                flush=True,
            )


def rematch_table(
    site: Path, pairs: list[int], runs: int, reference: Path | None
) -> None:
    print(
        "| workload | tool | wall s | CPU s | pairs/s | × reference | Σ per-pair "
        "| peak MB |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for count in pairs:
        cand, ref = unrelated(count)
        tsv = {k: WORK / f"core-rematch-{count}-{k}.tsv" for k in ("c", "p")}
        tools = {
            "amrcheck compiled": (
                _score(site, ref, cand, tsv["c"], "--metric", "rematch"),
                environment(site, pure=False),
            ),
            "amrcheck pure": (
                _score(site, ref, cand, tsv["p"], "--metric", "rematch"),
                environment(site, pure=True),
            ),
        }
        if reference is not None:
            tools["reference rematch"] = (
                [
                    sys.executable,
                    str(reference / "run_rematch.py"),
                    str(cand),
                    str(ref),
                ],
                dict(os.environ),
            )
        found = _alternate(tools, runs)
        totals = {}
        for name, key in (("amrcheck compiled", "c"), ("amrcheck pure", "p")):
            with tsv[key].open() as handle:
                rows = csv.DictReader(handle, delimiter="\t")
                totals[name] = sum(float(row["f1"]) for row in rows)
        if reference is not None:
            totals["reference rematch"] = float(
                found["reference rematch"][2].split()[1]
            )
        base = found["reference rematch"][0] if reference is not None else None
        for name, (wall, cpu, _, peak) in found.items():
            times = f"**{base / wall:.1f}×**" if base else "–"
            print(
                f"| unrelated {count:,} | {name} | {wall:.2f} | {cpu:.2f} "
                f"| {count / wall:,.0f} | {times} | {totals[name]:.6f} "
                f"| {peak:.0f} |",
                flush=True,
            )


def first_run(site: Path) -> None:
    """The compiled build's first run on a fresh install: empty caches."""
    cand, ref = unrelated(5000)
    with tempfile.TemporaryDirectory() as folder:
        env = environment(
            site,
            pure=False,
            AMRCHECK_CACHE_DIR=str(Path(folder, "amrcheck")),
            NUMBA_CACHE_DIR=str(Path(folder, "numba")),
        )
        wall, cpu, _, _ = timed(
            _score(site, ref, cand, WORK / "core-first.tsv"), env
        )
        print(
            f"first run, 5,000 pairs, empty caches: {wall:.2f} s wall, {cpu:.2f} s CPU"
        )
        # a pure build's background preparation of numba's search: let it
        # finish before the folder goes (it runs niced; it is not timed); a
        # compiled build starts none
        packed = "from amrcheck.metrics import _search as s; print(s.PACKED)"
        if timed([sys.executable, "-c", packed], env)[2].strip() == "True":
            return
        ready = "from amrcheck.metrics import _search_cache as c; print(c.ready())"
        for _ in range(120):
            if timed([sys.executable, "-c", ready], env)[2].strip() == "True":
                break
            time.sleep(1)


def profile(site: Path, pairs: int) -> None:
    print(
        "| build | reading | standardising | scoring | output | whole process "
        "| floor: reading alone (whole process) |"
    )
    print("|---|---|---|---|---|---|---|")
    script = str(REPO / "bench" / "profile_metrics.py")
    for label, pure in (("compiled", False), ("pure", True)):
        out = timed(
            [
                sys.executable,
                script,
                "--pairs",
                str(pairs),
                "--metrics",
                "smatch",
                "--json",
            ],
            environment(site, pure),
        )[2]
        floor = next(line for line in out.splitlines() if line.startswith("floor"))
        row = json.loads(
            next(line for line in out.splitlines() if line.startswith("{"))
        )
        cells = " | ".join(
            f"{row[k][0]:.2f} / {row[k][1]:.2f}"
            for k in ("read", "standardise", "score", "output", "whole")
        )
        reading = floor.split("read into graphs ")[1]
        print(f"| {label} | {cells} | {reading} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, nargs="+", default=[5000, 20000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, default=WORK / "compiled-site")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--rematch-reference", type=Path, default=None)
    parser.add_argument(
        "--venv",
        type=Path,
        metavar="DIR",
        help="run every tool under a clean virtual environment's python "
        "(made in DIR if missing)",
    )
    parser.add_argument(
        "--parts",
        nargs="+",
        default=["smatch", "rematch", "profile", "first"],
        choices=["smatch", "rematch", "profile", "first"],
    )
    args = parser.parse_args()
    seconds = build(args.site, args.rebuild)
    if seconds is not None:
        print(f"compiled build (python -m build --wheel): {seconds:.1f} s")
    if args.venv and Path(sys.prefix).resolve() != args.venv.resolve():
        # this bench again, under the clean environment's python
        python = clean_python(args.venv.resolve())
        rest = [a for a in sys.argv[1:] if a != "--rebuild"]
        bench = str(Path(__file__).resolve())
        raise SystemExit(subprocess.run([str(python), bench, *rest]).returncode)
    print(f"interpreter: {sys.executable}", flush=True)
    _check_loaded(args.site)
    # numba's search ready for the pure build, untimed (the compiled build
    # never loads it)
    subprocess.run(
        [sys.executable, "-m", "amrcheck.metrics._search_cache"],
        check=True,
        env=environment(args.site, pure=True),
        cwd="/tmp",
    )
    print(f"load average before: {os.getloadavg()}", flush=True)
    if "smatch" in args.parts:
        smatch_table(args.site, args.pairs, args.runs)
    if "rematch" in args.parts:
        rematch_table(args.site, args.pairs, args.runs, args.rematch_reference)
    if "profile" in args.parts:
        profile(args.site, max(args.pairs))
    if "first" in args.parts:
        first_run(args.site)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
