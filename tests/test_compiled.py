"""The compiled build (mypyc, ``setup.py``) gives the pure Python build's results.

A wheel is built with the C compiler from a copy of the packages, as
``AMRCHECK_COMPILE=1 pip install .`` builds it, and installed into a
folder of its own. Then, in fresh interpreters that see that folder and
not this checkout:

* the modules ``setup.py`` names load compiled, and from their ``.py``
  sources with ``AMRCHECK_PURE_PYTHON=1``;
* both ways read, standardise, number and score real data — Little Prince
  (each graph against the next) and BAMBOO dev (the main pairs of sts,
  sick and para) —
  with smatch (strict and ``--compat smatch-1.0.4``) and rematch, and score
  UMR pairs (the hand-made probes against their gold, English release
  files against the next) with umatch (with filters, with and without
  document level) and the document level, and every result is the same;
* scoring more pairs than ``SWITCH_AFTER`` never loads numba compiled
  (the compiled search is as fast);
* the smatch and s2match tests, the smatch parity and invariance suites
  and the reader's tests pass against the compiled modules.

The build without a compiler: tests/test_packaging.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO, SHARED_DATA

#: hand-made UMR pairs: gold.umr and copies of it with one edit each
UMR_PROBES = REPO / "tests" / "data" / "umr" / "scoring"

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    # scripts/install-test-tools.sh installs it (Debian's build-essential)
    pytest.mark.skipif(
        shutil.which("gcc") is None and shutil.which("cc") is None,
        reason="no C compiler (run scripts/install-test-tools.sh)",
    ),
]

#: the modules setup.py compiles: reading, standardising, canonical numbering,
#: the (plain) search with its problem and climb, smatch's and rematch's
#: per-pair paths, the chunked corpus reader,
#: the pairing of two streams, UMR reading and validation with the core types they
#: build (graphs, spans, findings), and UMR scoring (umatch, document level)
COMPILED = [
    "amrcheck.canonical",
    "amrcheck.standardize",
    "amrcheck.reading._parse",
    "amrcheck.reading.metadata",
    "amrcheck.metrics._search",
    "amrcheck.metrics._encoding",
    "amrcheck.metrics._motifs",
    "amrcheck.metrics._align",
    "amrcheck.metrics._smatch_core",
    "amrcheck.reading.corpus",
    "amrcheck.pairing.streaming",
    "amrcheck.span",
    "amrcheck.findings",
    "amrcheck.graph",
    "amrcheck.reading.umr",
    "amrcheck.validation.umr",
    "amrcheck.validation.filecheck",
    "amrcheck.workflows.umatch",
    "amrcheck.workflows.umr_score",
]

#: prints, as JSON: where each compiled module was loaded from, and a digest
#: of every result on the real data
_RESULTS = r"""
import hashlib, json, sys
from pathlib import Path
from amrcheck.canonical import canonical_ranks
from amrcheck.metrics import get_metric
from amrcheck.reading.corpus import read_corpus
from amrcheck.standardize import STRICT, standardize

shared = Path(sys.argv[1])
modules = sys.argv[3:]
files = [shared / "little_prince" / "amr-bank-struct-v3.0.txt"]
files += sorted(shared.glob("bamboo/*/main/*.dev.amr"))
graphs = {}
digests = {}
for path in files:
    entries = read_corpus(path)
    graphs[path] = [e.graph for e in entries]
    read = hashlib.sha256()
    for e in entries:
        g = e.graph
        read.update(repr((e.start, e.end, sorted(e.metadata.items()), e.comments,
                          [str(f) for f in e.errors])).encode())
        if g is not None:
            read.update(repr((g.top, g.triples, [int(k) for k in g.kinds],
                              g.offsets, sorted(g.alignments.items()))).encode())
            standard = standardize(g, STRICT)
            read.update(repr((standard.instances, standard.attributes,
                              standard.relations, canonical_ranks(standard))).encode())
    digests[path.name + " read+standardise+number"] = read.hexdigest()
from amrcheck.validation.filecheck import check_file, finding_lines
umr = hashlib.sha256()
for path in sorted((shared / "umr" / "english").glob("*.umr"))[::10]:
    result = check_file(path, [], [])
    umr.update("\n".join([path.name, *finding_lines(result.findings)]).encode())
digests["umr english, every 10th file, checked"] = umr.hexdigest()
from amrcheck.reading.umr import read_umr
from amrcheck.workflows.umatch import umatch
from amrcheck.workflows.umr_score import document_dict, score_document
probes = Path(sys.argv[2])
umr_pairs = [(probes / "gold.umr", p) for p in sorted(probes.glob("*.umr"))]
english = sorted((shared / "umr" / "english").glob("*.umr"))[::20]
umr_pairs += list(zip(english, english[1:]))  # unlike tokens: realigned
for gold, test in umr_pairs:
    reference, candidate = read_umr(gold), read_umr(test)
    digests[f"umr {gold.name} {test.name} umatch"] = repr((
        umatch(reference, candidate),
        umatch(reference, candidate, document_level=False, exclude=["ARG0"]),
        umatch(reference, candidate, only=["concept", "temporal"])))
    digests[f"umr {gold.name} {test.name} document"] = repr(
        document_dict(score_document(reference, candidate)))
from amrcheck.pairing.streaming import PairStream
for gold, test in ((files[0], files[0]), *((f, f.with_name("tgt.dev.amr"))
                   for f in files[1:] if f.name == "src.dev.amr")):
    streamed = hashlib.sha256()
    # small chunks: entries cut across chunk ends
    stream = PairStream(gold, [test], chunk_bytes=4096)
    for batch in stream.in_step(64):
        for number, pair in batch:
            streamed.update(repr((number, pair.index, pair.id, pair.reference.triples,
                                  pair.candidate and pair.candidate.triples)).encode())
    report = stream.close()[str(test)]
    streamed.update(repr((report.by, report.note, report.unpaired)).encode())
    for batch in stream.waiting(64):
        for number, pair in batch:
            streamed.update(repr((number, pair.index, pair.id)).encode())
    digests[f"{gold.parent.parent.name} {gold.name} {test.name} paired"] = (
        streamed.hexdigest())
pairs = {"little prince, each graph against the next": list(zip(
    graphs[files[0]][:-1], graphs[files[0]][1:]))}
for task in sorted({p.parent.parent.name for p in files[1:]}):
    folder = shared / "bamboo" / task / "main"
    pairs[f"bamboo {task}"] = list(zip(graphs[folder / "src.dev.amr"],
                                       graphs[folder / "tgt.dev.amr"]))
scores = {}
for name, options in (("smatch", {}), ("smatch", {"compat": "smatch-1.0.4"}),
                      ("rematch", {})):
    metric = get_metric(name, **options)
    for label, work in pairs.items():
        found = [metric.score(a, b) for a, b in work if a is not None and b is not None]
        scores[f"{name} {options} {label}"] = [
            (s.f1, s.precision, s.recall, sorted(s.counts.items())) for s in found]
print(json.dumps({
    "loaded": {m: sys.modules[m].__file__ for m in modules},
    "numba loaded": "numba" in sys.modules,
    "digests": digests,
    "scores": scores,
}))
"""


def _sources(into: Path) -> Path:
    """A copy of what a build reads (the packages and the build's files)."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z", "--",
         "amrcheck", "amr_lsp", "setup.py", "pyproject.toml", "README.md",
         "LICENSE", "MANIFEST.in"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout.split("\0")
    for name in filter(None, listed):
        if (REPO / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, into / name)
    return into


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The compiled wheel, installed into a folder of its own."""
    source = _sources(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("dist")
    env = {
        k: v for k, v in os.environ.items() if k not in ("CC", "AMRCHECK_PURE_PYTHON")
    }
    env["AMRCHECK_COMPILE"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation",
         "--outdir", str(out), str(source)],
        capture_output=True, text=True, timeout=1800, env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = out.glob("amrcheck-*.whl")
    assert not wheel.name.endswith("-py3-none-any.whl"), wheel.name
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    extensions = {
        name.split(".cpython-")[0].replace("/", ".")
        for name in names
        if name.startswith("amrcheck/") and ".cpython-" in name
    }
    assert extensions == set(COMPILED)
    assert all(f"{m.replace('.', '/')}.py" in names for m in COMPILED)  # beside it
    target = tmp_path_factory.mktemp("site")
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index",
         "--disable-pip-version-check", "--target", str(target), str(wheel)],
        capture_output=True, text=True, timeout=300,
    )
    assert pip.returncode == 0, pip.stdout + pip.stderr
    return target


def _env(site: Path, pure: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "AMRCHECK_PURE_PYTHON"}
    env["PYTHONPATH"] = str(site)
    if pure:
        env["AMRCHECK_PURE_PYTHON"] = "1"
    return env


def _results(site: Path, pure: bool, cwd: Path) -> dict[str, dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-c", _RESULTS, str(SHARED_DATA), str(UMR_PROBES),
         *COMPILED],
        capture_output=True, text=True, timeout=1200, env=_env(site, pure), cwd=cwd,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, dict[str, object]] = json.loads(done.stdout)
    return found


def test_compiled_and_pure_python_give_the_same_results(
    installed: Path, tmp_path: Path
) -> None:
    compiled = _results(installed, pure=False, cwd=tmp_path)
    pure = _results(installed, pure=True, cwd=tmp_path)
    for module in COMPILED:
        assert Path(str(compiled["loaded"][module])).is_relative_to(installed)
        assert ".cpython-" in str(compiled["loaded"][module]), compiled["loaded"]
        assert str(pure["loaded"][module]).endswith(".py"), pure["loaded"]
    workloads = ["little prince, each graph against the next"]
    workloads += [f"bamboo {task}" for task in ("para", "sick", "sts")]
    scorings = ["smatch {}", "smatch {'compat': 'smatch-1.0.4'}", "rematch {}"]
    assert set(compiled["scores"]) == {f"{s} {w}" for s in scorings for w in workloads}
    assert all(compiled["scores"].values())
    # past SWITCH_AFTER alignments: the compiled search never loads numba
    assert str(compiled["numba loaded"]) == "False"
    assert compiled["digests"] == pure["digests"]
    for label, found in compiled["scores"].items():
        assert found == pure["scores"][label], label


# the suites run from this checkout's tests/, against the installed package:
# ``-P`` keeps the working directory (the checkout) off the front of sys.path,
# ``--import-mode=append`` puts it behind the installed package
SUITES = [
    "tests/metrics/test_smatch.py",
    "tests/metrics/test_s2match.py",
    "tests/metrics/test_smatch_parity.py",
    "tests/metrics/test_invariance.py",
    "tests/metrics/test_memory.py",
    "tests/reading",
    "tests/pairing",
    "tests/validation/test_umr.py",
    "tests/workflows/test_umatch.py",
    "tests/workflows/test_umr_score.py",
]

#: tests that count or block a shortcut by patching its module's functions
#: (the UMR reader's fast paths, umatch's twin sentences): compiled code
#: calls them natively, so there the patch reaches no call (a path would be
#: compared with itself, or no call found). They test the source's routing,
#: in the pure suite.
PURE_ONLY = [
    "tests/reading/test_umr_fast_paths.py",
    "tests/workflows/test_umatch.py::"
    "test_sentences_that_share_the_reference_tables_count_as_made_alone",
]

_WHERE = '''
import sys
def pytest_sessionfinish(session):
    print("\\nloaded:", *(sys.modules[m].__file__ for m in {modules!r}))
'''


def test_the_parity_and_invariance_suites_pass_compiled(
    installed: Path, tmp_path: Path
) -> None:
    (tmp_path / "where_loaded.py").write_text(_WHERE.format(modules=COMPILED))
    env = _env(installed, pure=False)
    # the checkout last: its tests package, not another checkout's that an
    # editable install may have put on sys.path
    env["PYTHONPATH"] = os.pathsep.join([str(installed), str(tmp_path), str(REPO)])
    done = subprocess.run(
        [sys.executable, "-P", "-m", "pytest", "-q", "-x", "--import-mode=append",
         "-p", "where_loaded", "-p", "no:xdist", "-p", "no:cacheprovider",
         "-o", "addopts=", "-m", "not slow", *SUITES,
         *(f"--deselect={test}" for test in PURE_ONLY)],
        capture_output=True, text=True, timeout=1800, env=env, cwd=REPO,
    )
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]
    lines = done.stdout.splitlines()
    (loaded,) = [line for line in lines if line.startswith("loaded:")]
    paths = loaded.split()[1:]
    assert len(paths) == len(COMPILED)
    assert all(".cpython-" in p and Path(p).is_relative_to(installed) for p in paths)
