"""UMR validation: amrcheck against the ÚFAL validator (``validate.py``) as a peer.

The peer is not part of the project (GPL, never committed): fetch
``ufal/umrtools`` and put its ``validate.py`` anywhere, e.g.::

    git --git-dir=/work/.mirror/ufal+umrtools/repo show HEAD:validate.py \\
        > /tmp/umrtools/validate.py
    python bench/bench_umr_validate.py --peer /tmp/umrtools/validate.py

It runs from a temporary directory, one process per file (sentence ids
and variables are per call, so a call holds one document), with
``--max-err 0`` and with ``requests`` hidden so that it never calls the
Wikidata API. amrcheck runs once over all files (``amrcheck check
--quiet``, its interpreter started directly as the peer's is), in the same
run, so the speed ratio compares the two under the same machine load.

What is compared: each finding of either tool is mapped to the peer's test
ids (:data:`amrcheck.validation.umr_rules.UMR_RULES` names them for every
code) and to its sentence (by line); per file, sentence and test id the
counts are matched. Findings of ours in a sentence the peer skipped (it
stops reading a sentence at its first format error) are counted apart.
The probes (``tests/data/umr/probes/U*.umr``, one per rule) are compared
the same way, and each probe reports whether the peer found its rule.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from amrcheck.reading.umr import iter_umr_file  # noqa: E402
from amrcheck.validation.umr_rules import UMR_RULES  # noqa: E402

ENGLISH = REPO.parent / "shared" / "data" / "umr" / "english"
PROBES = REPO / "tests" / "data" / "umr" / "probes"
_HEADING = re.compile(
    r"^#\s*(sentence level graph|alignment|document level annotation):\s*$"
)
_OUR_LINE = re.compile(r"^(.*):(\d+):\d+: (U\d{3}) ")
_PEER_LINE = re.compile(r"^\[Line (\d+)[^\]]*\]: \[L(\d) (\w+) ([a-z-]+)\]")
#: the options a probe asks for (first line ``# options: a, b``) in peer form
_PEER_OPTIONS = {"warn-overlapping-alignment": "--warn-overlapping-alignment"}


def children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_peer(
    validator: Path, files: list[Path]
) -> tuple[dict[str, list[tuple[str, int, int]]], float]:
    """Per file: (test id, level, line) of every peer finding; and the seconds."""
    found: dict[str, list[tuple[str, int, int]]] = {}
    with tempfile.TemporaryDirectory() as work:
        shim = Path(work) / "shim"
        shim.mkdir()
        (shim / "requests.py").write_text(
            "raise ImportError('no network in the bench')\n"
        )
        env = {**os.environ, "PYTHONPATH": str(shim)}
        start = time.perf_counter()
        for path in files:
            options = [
                _PEER_OPTIONS[o] for o in probe_options(path) if o in _PEER_OPTIONS
            ]
            done = subprocess.run(
                [sys.executable, str(validator), "--max-err", "0", *options, str(path)],
                cwd=work,
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            found[str(path)] = [
                (m.group(4), int(m.group(2)), int(m.group(1)))
                for line in (done.stdout + done.stderr).splitlines()
                if (m := _PEER_LINE.match(line))
            ]
        return found, time.perf_counter() - start


def run_ours(
    files: list[Path], umr: list[str]
) -> tuple[dict[str, list[tuple[str, int]]], float]:
    """Per file: (code, line) of every amrcheck finding; and the seconds."""
    start = time.perf_counter()
    options = [f"--umr={','.join(umr)}"] if umr else []
    # the interpreter run directly, as the peer's is (a pyenv shim in front
    # of the console script costs ~0.5 s CPU of bash that is not amrcheck's)
    command = [sys.executable, "-c", "from amrcheck.cli import main; main()"]
    done = subprocess.run(
        [*command, "check", "--quiet", *options, *map(str, files)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    seconds = time.perf_counter() - start
    found: dict[str, list[tuple[str, int]]] = {str(f): [] for f in files}
    for line in done.stdout.splitlines():
        match = _OUR_LINE.match(line)
        if match:
            found[match.group(1)].append((match.group(3), int(match.group(2))))
    return found, seconds


def probe_options(path: Path) -> list[str]:
    with path.open(encoding="utf-8", errors="replace") as handle:
        first = handle.readline()
    return (
        [o.strip() for o in first.split(":", 1)[1].split(",")]
        if first.startswith("# options:")
        else []
    )


def sentence_starts(path: Path) -> list[int]:
    return [s.source.first_line for s in iter_umr_file(path)]


def compare(
    peer: dict[str, list[tuple[str, int, int]]], ours: dict[str, list[tuple[str, int]]]
) -> dict[str, Counter[str]]:
    """Counters by peer test id: both, peer only, ours only, ours where the
    peer skipped the sentence."""
    result: dict[str, Counter[str]] = {
        k: Counter() for k in ("both", "peer", "ours", "skipped")
    }
    EXAMPLES.clear()
    for path in peer:
        starts = sentence_starts(Path(path))

        def sentence(line: int, starts: list[int] = starts) -> int:
            return max(0, bisect.bisect_right(starts, line) - 1)

        skipped = {sentence(line) for _, level, line in peer[path] if level == 1}
        theirs: Counter[tuple[int, str]] = Counter(
            (sentence(line), test) for test, _, line in peer[path]
        )
        mine: Counter[tuple[int, str]] = Counter()
        for code, line in ours[path]:
            tests = UMR_RULES[code].peer or (f"({code}: none)",)
            key = (sentence(line), tests[0])
            # a code checks what several peer ids check: take the one the peer used
            for test in tests:
                if theirs[(sentence(line), test)] > mine[(sentence(line), test)]:
                    key = (sentence(line), test)
                    break
            mine[key] += 1
        for key in set(theirs) | set(mine):
            common = min(theirs[key], mine[key])
            result["both"][key[1]] += common
            result["peer"][key[1]] += theirs[key] - common
            if theirs[key] > common:
                lines = [
                    line
                    for test, _, line in peer[path]
                    if test == key[1] and sentence(line) == key[0]
                ]
                EXAMPLES.setdefault(("peer", key[1]), []).append(
                    f"{Path(path).name}:{lines[0]}"
                )
            if mine[key] > common and key[0] not in skipped:
                lines = [
                    line
                    for code, line in ours[path]
                    if sentence(line) == key[0]
                    and key[1] in (UMR_RULES[code].peer or (f"({code}: none)",))
                ]
                EXAMPLES.setdefault(("ours", key[1]), []).append(
                    f"{Path(path).name}:{lines[0] if lines else '?'}"
                )
            extra = mine[key] - common
            if key[0] in skipped:
                result["skipped"][key[1]] += extra
            else:
                result["ours"][key[1]] += extra
    return result


#: (side, test id) -> places of unmatched findings, for looking at them
EXAMPLES: dict[tuple[str, str], list[str]] = {}


def examples() -> str:
    return "\n".join(
        f"{side} only, {test}: {' '.join(places[:4])}"
        for (side, test), places in sorted(EXAMPLES.items())
    )


def table(result: dict[str, Counter[str]]) -> str:
    tests = sorted(set().union(*result.values()))
    lines = [
        "| peer test id | both | peer only | ours only "
        "| ours only, sentence skipped by the peer |",
        "|---|---:|---:|---:|---:|",
    ]
    for test in tests:
        lines.append(
            f"| `{test}` | {result['both'][test]} | {result['peer'][test]} | "
            f"{result['ours'][test]} | {result['skipped'][test]} |"
        )
    return "\n".join(lines)


def probe_report(
    peer: dict[str, list[tuple[str, int, int]]], ours: dict[str, list[tuple[str, int]]]
) -> str:
    lines = ["| probe | ours | peer | peer finds the rule |", "|---|---|---|---|"]
    for path in sorted(peer):
        code = Path(path).stem
        mine = sorted({c for c, _ in ours[path]})
        theirs = sorted({t for t, _, _ in peer[path]})
        agrees = bool(set(UMR_RULES[code].peer) & set(theirs))
        lines.append(
            f"| {code} | {' '.join(mine)} | {' '.join(theirs) or '(nothing)'} | "
            f"{'yes' if agrees else 'no'} |"
        )
    return "\n".join(lines)


def normalize(files: list[Path], folder: Path) -> list[Path]:
    """The files in the specification's layout: one empty line before each
    block heading, two after each sentence, no trailing white space. The
    peer skips every sentence with a layout deviation; on these it checks
    all of them."""
    written = []
    for path in files:
        lines = [line.rstrip() for line in path.read_text(encoding="utf-8").split("\n")]
        result: list[str] = []
        for line in lines:
            if not line:
                continue
            if line.startswith("#####") and result:
                result += ["", ""]
            if _HEADING.match(line):
                result.append("")
            result.append(line)
        target = folder / path.name
        target.write_text("\n".join([*result, "", "", ""]), encoding="utf-8")
        written.append(target)
    return written


def measure(name: str, validator: Path, files: list[Path]) -> dict[str, object]:
    """Speed (ours before and after the peer: the load changes) and findings."""
    with open("/proc/loadavg") as handle:
        load_before = handle.read().strip()
    cpu = children_cpu()
    ours, our_first = run_ours(files, [])
    our_cpu_first, cpu = children_cpu() - cpu, children_cpu()
    peer, peer_seconds = run_peer(validator, files)
    peer_cpu, cpu = children_cpu() - cpu, children_cpu()
    _, our_second = run_ours(files, [])
    our_cpu = (our_cpu_first + children_cpu() - cpu) / 2
    our_seconds = (our_first + our_second) / 2
    with open("/proc/loadavg") as handle:
        load_after = handle.read().strip()
    print(f"## {name}: {len(files)} files")
    print(
        f"peer validate.py: {peer_seconds:.1f} s wall, {peer_cpu:.1f} s CPU "
        "(one process per file)"
    )
    print(
        f"amrcheck check:   {our_seconds:.1f} s wall, {our_cpu:.1f} s CPU "
        "(one process; mean of a run before and after the peer: "
        f"{our_first:.1f} s, {our_second:.1f} s)"
    )
    wall, cpu_ratio = peer_seconds / our_seconds, peer_cpu / our_cpu
    print(f"speed ratio: {wall:.1f}x wall, {cpu_ratio:.1f}x CPU")
    print(f"load before: {load_before}; after: {load_after}")
    print()
    result = compare(peer, ours)
    print(table(result))
    print()
    print(examples())
    print()
    return {
        "files": len(files),
        "peer_seconds": peer_seconds,
        "amrcheck_seconds": our_seconds,
        "peer_cpu": peer_cpu,
        "amrcheck_cpu": our_cpu,
        "load": [load_before, load_after],
        "findings": {k: dict(v) for k, v in result.items()},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--peer", type=Path, required=True, help="the peer's validate.py"
    )
    parser.add_argument(
        "--limit", type=int, default=0, help="only the first N English files"
    )
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    english = sorted(ENGLISH.glob("*.umr"))
    if args.limit:
        english = english[: args.limit]
    figures = {"release": measure("English release, as released", args.peer, english)}
    with tempfile.TemporaryDirectory() as folder:
        normalized = normalize(english, Path(folder))
        figures["normalized"] = measure(
            "English release in the specification's layout", args.peer, normalized
        )
    probes = sorted(PROBES.glob("U*.umr"))
    peer_probes, _ = run_peer(args.peer, probes)
    ours_probes: dict[str, list[tuple[str, int]]] = {}
    for probe in probes:
        found, _ = run_ours([probe], probe_options(probe))
        ours_probes.update(found)
    print("## Probes")
    print(probe_report(peer_probes, ours_probes))
    print()
    print(table(compare(peer_probes, ours_probes)))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
