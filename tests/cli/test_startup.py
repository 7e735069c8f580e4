"""What a command imports: only what it uses (start-up time).

Each test runs the command in a fresh interpreter, as the ``amrcheck``
script does, and lists the modules it loaded.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import fresh_python, shared_path

SICK = "bamboo/sick/role_confusion"
REF, CAND = shared_path(f"{SICK}/src.dev.amr"), shared_path(f"{SICK}/tgt.dev.amr")

#: loaded after the command ran, one name a line on stderr
_RUN = (
    "import sys\n"
    "from amrcheck.cli import main\n"
    "sys.argv = ['amrcheck'] + sys.argv[1:]\n"
    "try:\n"
    "    main()\n"
    "except SystemExit:\n"
    "    pass\n"
    "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\n"
)

#: what no plain AMR score needs: UMR's reader and comparisons, rich (no
#: table, no bar with -q), numpy and scipy, JSON, worker processes
NOT_FOR_AN_AMR_SCORE = (
    "amrcheck.reading.umr",
    "amrcheck.reading.umr_corpus",
    "amrcheck.workflows.umatch",
    "amrcheck.workflows.umr_score",
    "rich",
    "numpy",
    "scipy",
    "json",
    "multiprocessing",
)

#: what printing the version or the help never needs
NOT_FOR_HELP = ("numpy", "scipy", "amrcheck.search")


def loaded(*argv: str | Path) -> tuple[set[str], str]:
    """The modules a run of ``amrcheck ARGV`` loaded, and its stdout."""
    result = subprocess.run(
        [sys.executable, "-c", _RUN, *map(str, argv)],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(result.stderr.split()), result.stdout


def among(modules: set[str], names: tuple[str, ...]) -> list[str]:
    """The ``names`` loaded, each a package or one of its submodules."""
    return [
        name
        for name in names
        if name in modules or any(m.startswith(name + ".") for m in modules)
    ]


def test_a_quiet_amr_score_loads_no_umr_rich_numpy_or_json(tmp_path: Path) -> None:
    rows = tmp_path / "pairs.tsv"
    modules, out = loaded("score", REF, CAND, "-q", "--per-pair", rows)
    assert out.strip() and float(out) > 0  # it did score
    assert rows.read_text(encoding="utf-8").count("\n") == 51
    assert "amrcheck.metrics.smatch" in modules
    assert among(modules, NOT_FOR_AN_AMR_SCORE) == []


def test_a_score_without_rows_to_write_loads_no_csv() -> None:
    modules, out = loaded("score", REF, CAND, "-q")
    assert out.strip() and float(out) > 0
    assert among(modules, ("csv", *NOT_FOR_AN_AMR_SCORE)) == []


def test_a_rematch_score_loads_none_of_smatch_nor_the_standardiser() -> None:
    """rematch reads its own tokens: smatch's modules, standardize and
    penman's model (≈ 20 ms of imports) are for other metrics."""
    modules, out = loaded("score", REF, CAND, "-q", "--metric", "rematch")
    assert out.strip() and float(out) > 0
    assert "amrcheck.metrics.rematch" in modules
    smatch_only = ("amrcheck.metrics.smatch", "amrcheck.standardize", "penman")
    assert among(modules, smatch_only) == []


def test_the_version_and_the_help_load_no_numpy_or_scipy() -> None:
    for argv in (["--version"], ["--help"], ["score", "--help"], []):
        modules, out = loaded(*argv)
        assert "amrcheck" in out or "Usage" in out, argv
        assert among(modules, NOT_FOR_HELP) == [], argv



def test_the_version_loads_no_command_nor_the_standardiser() -> None:
    modules, out = loaded("--version")
    assert out.startswith("amrcheck ")
    unused = ("penman", "amrcheck.standardize", "amrcheck.cli.score")
    assert among(modules, unused) == []


def test_the_package_standardize_stays_the_function_once_its_module_loads() -> None:
    code = (
        "import amrcheck, amrcheck.standardize\n"
        "from amrcheck.reading.corpus import decode\n"
        "print(amrcheck.standardize.__name__, callable(amrcheck.standardize))\n"
        "print(amrcheck.standardize(decode('(a / b)')).variables)\n"
    )
    assert fresh_python(code).splitlines() == ["standardize True", "['a']"]
