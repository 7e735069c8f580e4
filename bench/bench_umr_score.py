"""UMR scoring against its reference tools (issue 31): parity and speed.

Peers, run here and never committed:

* ÚFAL's ``compare_umr.pl`` (``ufal/umrtools``, GPL, Perl): taken from the
  mirror the ``fetch`` tool made (``/work/.mirror/ufal+umrtools``) or from
  ``--compare-umr PATH``, copied into a temporary folder and run there
  with ``--tsv`` (its exact counts), with and without ``--no-document-level``;
* AnCast++ (``pip install ancast``, MIT), in this process (``evaluate_doc``),
  and in a fresh one for the job measure.

Pairs: the hand-made probes of ``tests/data/umr/scoring`` (one edit each,
against ``gold.umr``) and every English release file against a perturbed
copy (seeded edits: a concept, an attribute value, an alignment range, a
document-level triple dropped; every other file also has all its
variables renamed; with ``--every-sentence``, every sentence's root
concept edited too). For each pair: does umatch give compare_umr.pl's
counts (aligned token sets, node projections, triples in mapped nodes,
umatch with and without document level) where the tool accepts the pair
(exit 0, no FATAL or WARNING, same sentence count); AnCast's document-level
figures where it reads the pair without crashing; and the time of each
tool on the same pair (umatch: both files read and compared, in this
process; compare_umr.pl: its run; document level: both files read and
``score_document`` against AnCast's ``evaluate_doc``, which reads them),
as wall clock and as CPU time. One process per side: compare_umr.pl
starts for every pair (its start-up is printed); amrcheck runs all pairs
in one process, whose start-up (a fresh interpreter importing the
scoring modules, and for the document level those it imports when
first used) is measured apart and added once to its total.

The per-pair figure times each of our pairs between the peers' runs,
which leave our process's caches cold. The job measure (``--job-rounds``
rounds, after the per-pair path) times the issue's job instead, every
English pair, as a user runs each tool: amrcheck as one fresh process
(``umr_job.py``: start-up, reading and scoring every pair, once for
umatch and once for the document level), AnCast's ``evaluate_doc`` as one
fresh process too (crashes caught and counted), compare_umr.pl as a run a
pair, back to back. A process's CPU is taken from RUSAGE_CHILDREN. Rounds
alternate ours and the peer's; the medians and their ratio are printed
as the "job" lines. Our jobs' figures must equal the per-pair path's.
The whole bench with its job rounds takes longer than one bench lock
should be held (10 minutes): ``--job-rounds 0`` gives the per-pair path
alone, ``--job-only`` the job measure alone (our per-pair figures still
computed for its check, untimed), ``--no-ancast`` or ``--no-compare-umr``
one comparison.

``--compiled SITE`` measures the compiled build (``AMRCHECK_COMPILE=1
pip install .``: mypyc's extensions of the modules ``setup.py`` lists),
built from this checkout into SITE; without it, the amrcheck on the path.
The first line printed says which build ran.

    PYTHONPATH=$PWD python bench/bench_umr_score.py [--limit N] [--seed 0]
        [--job-rounds 3 | --job-only] [--no-ancast | --no-compare-umr]
        [--every-sentence]
        [--compiled /tmp/amrcheck-bench/umr-site [--rebuild]]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from umr_job import (
    ancast_scores,
    document_figures,
    umatch_figures,
    write_pairs,
)

from amrcheck.reading.umr import HEADINGS, BlockKind, read_umr
from amrcheck.workflows.umatch import umatch
from amrcheck.workflows.umr_score import score_document

ROOT = Path(__file__).resolve().parents[1]
ENGLISH = ROOT / ".." / "shared" / "data" / "umr" / "english"
PROBES = ROOT / "tests" / "data" / "umr" / "scoring"
MIRROR = Path("/work/.mirror/ufal+umrtools/repo")
JOB = Path(__file__).resolve().with_name("umr_job.py")
#: the figure of compare_umr.pl's second run (``--no-document-level``)
BARE = "juːmæʧ without document level"
_VARIABLE_RE = re.compile(r"(?<![\w-])s(\d+)[a-z]+\d*(?![\w-])")
_CONCEPT_RE = re.compile(r"(\(\s*s\d+[a-z]+\d*\s*/\s*)([a-z][a-z-]*?)(-\d+)?(?=[\s)])")
#: a sentence graph's root concept, right after its block heading
_ROOT_CONCEPT_RE = re.compile(r"(# sentence level graph:\n\(\S+ / )(\S+?)(?=[\s)])")
_ATTRIBUTE_RE = re.compile(r":aspect (state|performance|activity|habitual|process)\b")
_ALIGNMENT_RE = re.compile(r"^(s\d+[a-z]+\d*): (\d+)-(\d+)$", re.M)
_DOCREL_RE = re.compile(
    r"\n\s*\((?:s\d+[a-z]+\d*|[a-z-]+) :[a-z-]+ s\d+[a-z]+\d*\)(?=\))"
)


def perturb(text: str, rng: random.Random, rename: bool) -> str:
    """``text`` with a few seeded edits (see the module)."""
    for _ in range(4):
        kind = rng.choice(["concept", "attribute", "alignment", "docrel"])
        pattern = {
            "concept": _CONCEPT_RE,
            "attribute": _ATTRIBUTE_RE,
            "alignment": _ALIGNMENT_RE,
            "docrel": _DOCREL_RE,
        }[kind]
        matches = list(pattern.finditer(text))
        if not matches:
            continue
        m = rng.choice(matches)
        if kind == "concept":
            new = m.group(1) + m.group(2) + "x" + (m.group(3) or "")
        elif kind == "attribute":
            new = ":aspect " + ("state" if m.group(1) != "state" else "activity")
        elif kind == "alignment":
            start = int(m.group(2))
            if start == 0:
                continue
            new = f"{m.group(1)}: {start + 1}-{max(start + 1, int(m.group(3)))}"
        else:
            new = ""
        text = text[: m.start()] + new + text[m.end() :]
    if rename:
        names: dict[str, str] = {}

        def fresh(match: re.Match[str]) -> str:
            return names.setdefault(match.group(0), f"s{match.group(1)}zq{len(names)}")

        text = _VARIABLE_RE.sub(fresh, text)
    return text


def edit_every_root(text: str) -> str:
    """``text`` with an "x" added to every sentence graph's root concept.

    ``--every-sentence``'s control: the job's perturbed copies leave most
    sentences as they are (four edits a file of ≈ 54 sentences), as a
    commit does; this one leaves none as it is, as a parse or a second
    annotator does, so that no shortcut for unchanged sentences can carry
    a figure alone.
    """
    return _ROOT_CONCEPT_RE.sub(lambda m: m.group(1) + m.group(2) + "x", text)


def ufal_layout(path: Path) -> str:
    """The file in the ÚFAL format's layout (four headed blocks, one empty
    line after each, two after a sentence), which compare_umr.pl needs: the
    release's own layouts (two empty lines between blocks, none before a
    heading) make it cut sentences wrongly. The blocks' lines are kept."""
    out: list[str] = []
    for sentence in read_umr(path).sentences:
        text = sentence.source.text
        out.append(f"# :: snt{sentence.number or sentence.index + 1}")
        for kind in BlockKind:
            block = sentence.blocks.get(kind)
            if kind in HEADINGS:
                out.append(HEADINGS[kind])
            if block is not None and block.end > block.start:
                lines = [
                    line.rstrip() for line in text[block.start : block.end].split("\n")
                ]
                lines = [line for line in lines if line.strip()]
                if kind is BlockKind.GRAPH:
                    lines = _no_trailing_zero(lines)
                out += lines
            out.append("")
        out.append("")
    return "\n".join(out) + "\n"


def _no_trailing_zero(lines: list[str]) -> list[str]:
    """A graph line that ends with the value ``0`` joined with the next line.

    compare_umr.pl eats a line while the rest is true in Perl, and the
    string "0" is false: a value ``0`` that ends a line (``:x 0``, ``:quant
    0``) is never read and its role is lost. Joining the lines changes no
    meaning and lets the peer read the value (docs/umr.md).
    """
    joined: list[str] = []
    for line in lines:
        if joined and re.search(r"\s0$", joined[-1]):
            joined[-1] += " " + line.strip()
        else:
            joined.append(line)
    return joined


@dataclass
class Clock:
    """A tool's time on one pair: wall clock and CPU (its process's, or the
    child's for a tool run as a process)."""

    wall: float
    cpu: float
    #: amrcheck's: the CPU time of reading the two files, of :attr:`cpu`
    reading: float = 0.0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_timed(
    argv: list[str], **options: Any
) -> tuple[subprocess.CompletedProcess[str], Clock]:
    """``subprocess.run(argv, **options)`` and the child's time: wall, and
    CPU from RUSAGE_CHILDREN (start-up included)."""
    start, start_cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(argv, text=True, **options)
    return done, Clock(time.perf_counter() - start, _children_cpu() - start_cpu)


def run_perl(
    script: Path, gold: Path, test: Path, *extra: str
) -> tuple[dict[str, list[str]] | None, str, Clock]:
    done, seconds = run_timed(
        ["perl", str(script), "GOLD", str(gold), "SYS", str(test), "--tsv", *extra],
        capture_output=True,
        cwd=script.parent,
        check=False,
    )
    rows = {line.split("\t")[0]: line.split("\t") for line in done.stdout.splitlines()}
    problem = ""
    if done.returncode != 0 or "FATAL" in done.stderr:
        problem = "refused: " + (done.stderr.strip().splitlines() or ["?"])[0][:100]
    elif "WARNING" in done.stderr:
        problem = "warning: " + done.stderr.strip().splitlines()[0][:100]
    return (rows if not problem else None), problem, seconds


def ours_umatch(gold: Path, test: Path) -> tuple[dict[str, tuple[int, ...]], Clock]:
    start, start_cpu = time.perf_counter(), time.process_time()
    reference, candidate = read_umr(gold), read_umr(test)
    reading = time.process_time() - start_cpu
    full = umatch(reference, candidate)
    # as one compare_umr.pl run
    seconds = Clock(
        time.perf_counter() - start, time.process_time() - start_cpu, reading
    )
    bare = umatch(reference, candidate, document_level=False)
    figures = umatch_figures(full)
    figures[BARE] = (bare.umatch.correct, bare.umatch.reference, bare.umatch.candidate)
    return figures, seconds


def perl_figures(
    full: dict[str, list[str]], bare: dict[str, list[str]]
) -> dict[str, tuple[int, ...]]:
    def ints(row: list[str], count: int) -> tuple[int, ...]:
        # a count compare_umr.pl never added to is Perl's undef, printed as
        # an empty field (a sentence with no node mapped: "node projections
        # GOLD SYS <empty> <empty> 3 3"): 0
        return tuple(int(x) if x else 0 for x in row[3 : 3 + count])

    return {
        "aligned token sets": ints(full["aligned token sets"], 3),
        "node projections": ints(full["node projections"], 4),
        "triples in mapped nodes": ints(full["triples in mapped nodes"], 3),
        "juːmæʧ": ints(full["juːmæʧ"], 3),
        BARE: ints(bare["juːmæʧ"], 3),
    }


def ancast_doc(gold: Path, test: Path) -> tuple[dict[str, Any] | None, str, Clock]:
    start, start_cpu = time.perf_counter(), time.process_time()
    scores, problem = ancast_scores(gold, test)
    return (
        scores,
        problem,
        Clock(time.perf_counter() - start, time.process_time() - start_cpu),
    )


def ours_doc(
    gold: Path, test: Path
) -> tuple[dict[str, float], dict[str, tuple[int, int]], Clock]:
    """The document level's F1 and sizes (reference, candidate) per group,
    and its time: one ``score_document`` a pair, so that the process makes
    the alignment searches a real run makes, no more (smatch loads its
    compiled search once a process has made 1,000: that would fall on a
    timed pair, as in a real run)."""
    start, start_cpu = time.perf_counter(), time.process_time()
    reference, candidate = read_umr(gold), read_umr(test)
    reading = time.process_time() - start_cpu
    scores = score_document(reference, candidate)
    seconds = Clock(
        time.perf_counter() - start, time.process_time() - start_cpu, reading
    )
    return *document_figures(scores), seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--compare-umr", type=Path, help="compare_umr.pl (else the mirror's)"
    )
    parser.add_argument("--limit", type=int, default=0, help="English files (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-ancast", action="store_true")
    parser.add_argument(
        "--no-compare-umr",
        action="store_true",
        help="no umatch against compare_umr.pl",
    )
    parser.add_argument(
        "--job-only",
        action="store_true",
        help="only the job measure: no per-pair timing nor peer's per-pair run "
        "(our per-pair figures are still computed, for the job's check); a full "
        "run takes longer than one bench lock should be held",
    )
    parser.add_argument(
        "--compiled",
        type=Path,
        metavar="SITE",
        help="measure the compiled build (AMRCHECK_COMPILE=1): built from this "
        "checkout into SITE unless there already (bench_compiled_core.build), "
        "then this bench run again with only SITE on PYTHONPATH",
    )
    parser.add_argument("--rebuild", action="store_true", help="with --compiled")
    parser.add_argument(
        "--every-sentence",
        action="store_true",
        help="also edit every sentence's root concept in the perturbed copies "
        "(a control: no sentence of a pair left unchanged)",
    )
    parser.add_argument(
        "--job-rounds",
        type=int,
        default=3,
        help="rounds of the job measure (each tool scoring every English pair "
        "in one run; 0: none)",
    )
    args = parser.parse_args()
    if args.compiled:
        return _run_compiled(args)
    print(f"build measured: {_build()}")
    logging.disable(logging.CRITICAL)  # AnCast logs every sentence
    work = Path(tempfile.mkdtemp(prefix="umr-bench-"))
    script = work / "compare_umr.pl"
    if args.compare_umr:
        shutil.copy(args.compare_umr, script)
    else:
        text = subprocess.run(
            ["git", "-C", str(MIRROR), "show", "HEAD:compare_umr.pl"],
            capture_output=True,
            check=True,
        ).stdout
        script.write_bytes(text)
    pairs: list[tuple[str, Path, Path]] = [
        ("probe " + p.stem, PROBES / "gold.umr", p)
        for p in sorted(PROBES.glob("*.umr"))
        if p.name != "gold.umr"
    ]
    rng = random.Random(args.seed)
    files = sorted(ENGLISH.glob("*.umr"))
    for number, path in enumerate(files[: args.limit or None]):
        gold = work / f"gold-{path.name}"
        gold.write_text(ufal_layout(path), encoding="utf-8")
        copy = work / path.name
        text = gold.read_text(encoding="utf-8")
        if args.every_sentence:
            text = edit_every_root(text)
        copy.write_text(perturb(text, rng, number % 2 == 1), encoding="utf-8")
        pairs.append((path.name, gold, copy))
    english = [pair for pair in pairs if not pair[0].startswith("probe")]
    expected = (
        _our_figures(args, english) if args.job_only else _per_pair(args, script, pairs)
    )
    if args.job_rounds and english:
        _jobs(script, english, args.job_rounds, expected, work)
    shutil.rmtree(work)
    return 0


def _per_pair(
    args: argparse.Namespace, script: Path, pairs: list[tuple[str, Path, Path]]
) -> dict[str, list[Any]]:
    """The per-pair path: parity and speed, pair by pair, against each peer;
    our figures of each English pair and AnCast's crashes, which the job
    measure's processes must give again."""
    # one process per side: amrcheck's process starts once for all pairs
    # (its start-up is measured apart and added once to its total); each
    # compare_umr.pl run is a process of its own, start-up included
    umatch_startup = startup("import amrcheck.workflows.umatch")
    doc_startup = startup(DOCUMENT_STARTUP)
    perl_startup = run_perl(script, PROBES / "gold.umr", PROBES / "gold.umr")[2]
    print(
        f"start-up: amrcheck umatch {umatch_startup.wall:.2f} s (CPU "
        f"{umatch_startup.cpu:.2f} s), document level {doc_startup.wall:.2f} s "
        f"(CPU {doc_startup.cpu:.2f} s), once; compare_umr.pl on a one-sentence "
        f"pair {perl_startup.wall * 1000:.0f} ms (CPU {perl_startup.cpu * 1000:.0f}"
        " ms), every pair"
    )
    english = [pair for pair in pairs if not pair[0].startswith("probe")]
    expected: dict[str, list[Any]] = {}
    if not args.no_compare_umr:
        figures = _perl_parity(script, pairs, umatch_startup)[-len(english) :]
        expected["umatch"] = [_with_document_level(f) for f in figures]
    if not args.no_ancast:
        expected["document"], expected["ancast"] = _ancast_parity(english, doc_startup)
    return expected


def _our_figures(
    args: argparse.Namespace, pairs: list[tuple[str, Path, Path]]
) -> dict[str, list[Any]]:
    """``--job-only``: the per-pair path's figures of ours, no peer run and
    no timing, for the job measure's check."""
    expected: dict[str, list[Any]] = {}
    if not args.no_compare_umr:
        expected["umatch"] = [
            _with_document_level(ours_umatch(gold, test)[0]) for _, gold, test in pairs
        ]
    if not args.no_ancast:
        expected["document"] = [ours_doc(gold, test)[:2] for _, gold, test in pairs]
    return expected


def _with_document_level(
    figures: dict[str, tuple[int, ...]],
) -> dict[str, tuple[int, ...]]:
    """The figures of one compare_umr.pl run (the job's), of both runs'."""
    return {key: value for key, value in figures.items() if key != BARE}


def _run_compiled(args: argparse.Namespace) -> int:
    """This bench, its other arguments, run against the compiled build in
    ``args.compiled``."""
    from bench_compiled_core import build

    site = Path(args.compiled).resolve()
    seconds = build(site, args.rebuild)
    if seconds is not None:
        print(f"compiled build (python -m build --wheel): {seconds:.0f} s", flush=True)
    arguments = ["--limit", str(args.limit), "--seed", str(args.seed)]
    if args.compare_umr:
        arguments += ["--compare-umr", str(Path(args.compare_umr).resolve())]
    for flag in ("no_ancast", "no_compare_umr", "job_only", "every_sentence"):
        if getattr(args, flag):
            arguments.append("--" + flag.replace("_", "-"))
    arguments += ["--job-rounds", str(args.job_rounds)]
    env = {k: v for k, v in os.environ.items() if k != "AMRCHECK_PURE_PYTHON"}
    env["PYTHONPATH"] = str(site)
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *arguments],
        env=env,
        cwd="/tmp",  # no checkout on the path
        check=False,
    )
    return done.returncode


def _build() -> str:
    """Which build of amrcheck this process runs: the compiled modules of
    the scoring path, or pure Python."""
    modules = [
        "reading.umr",
        "reading._parse",
        "workflows.umatch",
        "workflows.umr_score",
    ]
    compiled = [
        name
        for name in modules
        if ".cpython-" in str(sys.modules[f"amrcheck.{name}"].__file__)
    ]
    where = Path(str(sys.modules["amrcheck"].__file__)).parent.parent
    if not compiled:
        return f"pure Python ({where})"
    return f"compiled ({where}; of {', '.join(modules)}: {', '.join(compiled)})"


#: the document level's one-time costs: its modules and those it imports
#: when first used (smatch, numpy), by scoring the probes' gold against
#: itself. Not numba's compiled search: smatch loads it once a process has
#: made 1,000 alignment searches, and the document level searches only
#: sentence pairs that are not one graph twice (655 over the whole
#: release); a run that gets there pays the loading in the pair that does
DOCUMENT_STARTUP = (
    "from amrcheck.reading.umr import read_umr\n"
    "from amrcheck.workflows.umr_score import score_document\n"
    f"gold = read_umr({str(PROBES / 'gold.umr')!r})\n"
    "score_document(gold, gold)\n"
)


def startup(code: str) -> Clock:
    """A fresh interpreter's time to run ``code`` (best of three)."""
    runs = []
    for _ in range(3):
        runs.append(run_timed([sys.executable, "-c", code], check=True)[1])
    return min(runs, key=lambda clock: clock.wall)


def speed(label: str, times: list[tuple[Clock, Clock, str]], start: Clock) -> None:
    """Print the speed-up of ours over the peer (pairs of (theirs, ours,
    name)): per pair (min, median) and in total, the total with our
    start-up once; the pair of the smallest one."""
    for kind in ("wall", "cpu"):
        theirs = [getattr(pair[0], kind) for pair in times]
        ours = [getattr(pair[1], kind) for pair in times]
        ratios = [a / b for a, b in zip(theirs, ours, strict=True)]
        low = min(range(len(ratios)), key=ratios.__getitem__)
        with_start = sum(ours) + getattr(start, kind)
        print(
            f"{label} ({kind}, {len(times)} pairs): min {min(ratios):.1f}x, "
            f"median {statistics.median(ratios):.1f}x "
            f"({statistics.median(theirs) * 1000:.1f} ms / "
            f"{statistics.median(ours) * 1000:.1f} ms), total {sum(theirs):.1f} s"
            f" / {sum(ours):.1f} s = {sum(theirs) / sum(ours):.1f}x, with "
            f"amrcheck's start-up {sum(theirs) / with_start:.1f}x; min on "
            f"{times[low][2]} ({theirs[low] * 1000:.1f} ms / {ours[low] * 1000:.1f}"
            " ms)"
        )
    reading = statistics.fmean(pair[1].reading for pair in times)
    rest = statistics.fmean(pair[1].cpu for pair in times) - reading
    print(
        f"  amrcheck's CPU a pair (mean): reading both files {reading * 1000:.1f}"
        f" ms, comparing them {rest * 1000:.1f} ms"
    )


def _perl_parity(
    script: Path, pairs: list[tuple[str, Path, Path]], start: Clock
) -> list[dict[str, tuple[int, ...]]]:
    """umatch's counts against compare_umr.pl's, and the time of each;
    umatch's counts of each pair."""
    accepted = equal = 0
    unequal: list[str] = []
    refused: dict[str, int] = {}
    times: list[tuple[Clock, Clock, str]] = []
    ours_figures = []
    for name, gold, test in pairs:
        full, problem, perl_seconds = run_perl(script, gold, test)
        figures, seconds = ours_umatch(gold, test)
        ours_figures.append(figures)
        if full is None:
            kind = problem.split(":")[0]
            refused[kind] = refused.get(kind, 0) + 1
            if name.startswith("probe"):
                print(f"{name}: compare_umr.pl {problem}")
            continue
        bare, _, _ = run_perl(script, gold, test, "--no-document-level")
        accepted += 1
        theirs = perl_figures(full, bare or full)
        if theirs == figures:
            equal += 1
        else:
            unequal.append(f"{name}: ours {figures} theirs {theirs}")
        times.append((perl_seconds, seconds, name))
    print(f"pairs: {len(pairs)}")
    print(
        f"compare_umr.pl accepted {accepted}; umatch equal on {equal}; "
        f"not accepted: {refused}"
    )
    for line in unequal[:20]:
        print("UNEQUAL", line)
    if times:
        speed("umatch speed-up over compare_umr.pl", times, start)
    return ours_figures


def _ancast_parity(
    pairs: list[tuple[str, Path, Path]], start: Clock
) -> tuple[list[Any], list[str]]:
    """The document-level F1s against AnCast's, and the time of each; our
    figures (F1s, sizes) of each pair, and AnCast's crash ('' for none)."""
    import ancast.evaluate  # type: ignore[import-untyped]  # noqa: F401 -- its import is no pair's time

    read = 0
    crashes: dict[str, int] = {}
    times: list[tuple[Clock, Clock, str]] = []
    same = {group: 0 for group in ("temporal", "modal", "coref")}
    # no triple on either side: AnCast gives 0 (its division guard), amrcheck 1
    empty = dict.fromkeys(same, 0)
    differ: list[str] = []
    ours_figures: list[Any] = []
    crashed: list[str] = []
    for _, gold, test in pairs:
        theirs, crash, ancast_seconds = ancast_doc(gold, test)
        ours, ours_counts, doc_seconds = ours_doc(gold, test)
        ours_figures.append((ours, ours_counts))
        crashed.append(crash)
        if theirs is None:
            kind = crash.split(":")[0]
            crashes[kind] = crashes.get(kind, 0) + 1
            continue
        read += 1
        times.append((ancast_seconds, doc_seconds, test.name))
        for group in same:
            if abs(float(theirs[group]) - ours[group]) < 1e-6:
                same[group] += 1
            elif ours_counts[group] == (0, 0):
                empty[group] += 1
            else:
                differ.append(
                    f"{test.name} {group}: AnCast {float(theirs[group]):.4f}"
                    f" amrcheck {ours[group]:.4f} {ours_counts[group]}"
                )
    print(
        f"AnCast read {read} English pairs, crashed on {sum(crashes.values())}: "
        f"{crashes}; F1 equal to ours (1e-6) per group: {same}; no triple on "
        f"either side (AnCast 0, amrcheck 1): {empty}; other differences: "
        f"{len(differ)}"
    )
    for line in differ[:15]:
        print("DIFFERS", line)
    if times:
        speed("document level speed-up over AnCast", times, start)
    return ours_figures, crashed


def run_job(tool: str, listing: Path) -> tuple[list[Any], Clock]:
    """``tool``'s job (``umr_job.py``) on the pairs listed: its figures, and
    the time of its one fresh process, start-up included (CPU from
    RUSAGE_CHILDREN)."""
    out = listing.with_name(f"{tool}.json")
    # AnCast prints its format errors: not this bench's output
    _, clock = run_timed(
        [sys.executable, str(JOB), tool, str(listing), str(out)],
        stdout=subprocess.DEVNULL,
        check=True,
    )
    return json.loads(out.read_text(encoding="utf-8")), clock


def perl_job(script: Path, pairs: list[tuple[str, Path, Path]]) -> Clock:
    """compare_umr.pl's job: a run a pair (its only way), back to back."""
    clocks = [run_perl(script, gold, test)[2] for _, gold, test in pairs]
    return Clock(sum(c.wall for c in clocks), sum(c.cpu for c in clocks))


def _jobs(
    script: Path,
    pairs: list[tuple[str, Path, Path]],
    rounds: int,
    expected: dict[str, list[Any]],
    work: Path,
) -> None:
    """The job measure: each tool scores every pair in one run, as a user
    runs it, in rounds that alternate ours and the peer's; the figures of
    our jobs (and AnCast's crashes, where the per-pair path ran it) must
    equal the per-pair path's (``expected``), so that no job does less.
    compare_umr.pl is timed again here rather than summed from the
    per-pair runs: a run is a process of its own either way, but the ratio
    needs both tools timed in the same minutes (this host's speed swings
    ±40 % between minutes), and its job includes the pairs it refuses."""
    listing = work / "pairs.tsv"
    write_pairs([(gold, test) for _, gold, test in pairs], listing)
    tools: dict[str, Callable[[], tuple[list[Any] | None, Clock]]] = {
        "umatch": lambda: run_job("umatch", listing),
        "compare_umr.pl": lambda: (None, perl_job(script, pairs)),
        "document": lambda: run_job("document", listing),
        "ancast": lambda: run_job("ancast", listing),
    }
    comparisons = [
        comparison
        for comparison in [
            ("umatch over compare_umr.pl", "umatch", "compare_umr.pl"),
            ("document level over AnCast", "document", "ancast"),
        ]
        if comparison[1] in expected
    ]
    clocks: dict[str, list[Clock]] = {tool: [] for tool in tools}
    figures: dict[str, list[Any] | None] = {}
    for _ in range(rounds):
        for _, ours, theirs in comparisons:
            for tool in (ours, theirs):
                figures[tool], clock = tools[tool]()
                # JSON's round trip: the job's tuples come back as lists
                if tool in expected and figures[tool] != json.loads(
                    json.dumps(expected[tool])
                ):
                    raise SystemExit(
                        f"the {tool} job's figures differ from the per-pair path's"
                    )
                clocks[tool].append(clock)
    if figures.get("ancast"):
        crashes = sum(map(bool, figures["ancast"] or []))
        print(f"job: AnCast crashed on {crashes} of {len(pairs)} pairs")
    for label, ours, theirs in comparisons:
        job_speed(f"{label}, {len(pairs)} English pairs", clocks[theirs], clocks[ours])


def job_speed(label: str, theirs: list[Clock], ours: list[Clock]) -> None:
    """The job line: the peer's median over ours (CPU, wall), and each
    round's CPU."""
    medians = []
    for kind in ("cpu", "wall"):
        a = statistics.median(getattr(clock, kind) for clock in theirs)
        b = statistics.median(getattr(clock, kind) for clock in ours)
        medians.append(f"{kind} {a:.2f} s / {b:.2f} s = {a / b:.1f}x")
    each = ", ".join(
        f"{t.cpu:.2f} / {o.cpu:.2f} s" for t, o in zip(theirs, ours, strict=True)
    )
    print(
        f"job: {label} ({len(ours)} rounds, median): {'; '.join(medians)}; "
        f"CPU a round: {each}"
    )


if __name__ == "__main__":
    sys.exit(main())
