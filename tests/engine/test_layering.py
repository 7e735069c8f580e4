"""The engine imports nothing from the front ends (STYLE lesson 1)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import fresh_python

FRONT_END_MODULES = ("typer", "rich", "pygls", "lsprotocol", "click", "argparse")


def test_engine_imports_no_front_end_library() -> None:
    # the package loads its names lazily: touch every name and every metric
    code = (
        "import sys, amrcheck, amrcheck.metrics\n"
        "[getattr(amrcheck, name) for name in amrcheck.__all__]\n"
        "[amrcheck.metrics.metric_factory(n) for n in amrcheck.metric_names()]\n"
        f"bad = [m for m in {FRONT_END_MODULES!r} if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    assert fresh_python(code) == ""


def test_one_metric_loads_no_other() -> None:
    code = (
        "import sys\n"
        "from amrcheck.reading.corpus import read_string\n"
        "from amrcheck.metrics import get_metric\n"
        "get_metric('rematch').score(read_string('(a / b)')[0].graph,"
        " read_string('(a / c)')[0].graph)\n"
        "print(','.join(m for m in ('numpy', 'amrcheck.metrics.smatch',"
        " 'amrcheck.workflows.diff') if m in sys.modules))\n"
    )
    assert fresh_python(code) == ""


def test_builtin_metric_table_names_what_each_module_registers() -> None:
    import importlib

    from amrcheck.metrics import BUILTIN_METRICS, REGISTRY

    for name, module in BUILTIN_METRICS.items():
        importlib.import_module(f"amrcheck.metrics.{module}")
        assert REGISTRY[name].__module__ == f"amrcheck.metrics.{module}"


def test_a_command_loads_only_its_own_module() -> None:
    """``amrcheck score`` does not import the bench, iaa or train commands
    (numpy, the benchmarks), while ``--help`` still lists every command."""
    from amrcheck.cli import COMMAND_MODULES

    code = (
        "import sys\n"
        "from amrcheck.cli import COMMAND_MODULES, main\n"
        "sys.argv = ['amrcheck'] + sys.argv[1:]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "loaded = [m for m in COMMAND_MODULES if f'amrcheck.cli.{m}' in sys.modules]\n"
        "print(','.join(loaded), file=sys.stderr)\n"
    )

    def loaded(*argv: str) -> tuple[str, str]:
        result = subprocess.run(
            [sys.executable, "-c", code, *argv], capture_output=True, text=True
        )
        return result.stderr.strip().splitlines()[-1], result.stdout

    modules, _ = loaded("score", "--help")
    assert modules == "score"
    modules, listing = loaded("--help")
    assert modules.split(",") == list(COMMAND_MODULES)
    assert all(name in listing for name in ("bench", "score", "train", "iaa"))
