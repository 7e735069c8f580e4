"""The house drawn from its imports: no circle, no import from a lower layer
to a higher one (``scripts/layers.py``)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from .conftest import REPO

SCRIPT = REPO / "scripts" / "layers.py"


def load_layers() -> ModuleType:
    spec = importlib.util.spec_from_file_location("layers", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["layers"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def write_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_code_base_has_no_circle_and_no_upward_import() -> None:
    report = load_layers().check(REPO)
    assert report.upward == []
    assert report.circles == []
    assert report.unplaced == []
    # the trainers sit above the benchmarks they read; the model below the metrics
    assert "benchmarks" in report.edges["training"]
    assert "benchmarks" not in report.edges["learned"]
    assert "learned" in report.edges["metrics"]


def test_an_upward_import_and_a_circle_are_found(tmp_path: Path) -> None:
    layers = load_layers()
    write_tree(
        tmp_path,
        {
            "amrcheck/__init__.py": "",
            "amrcheck/graph.py": "",
            "amrcheck/benchmarks/__init__.py": "from ..graph import x\n",
            "amrcheck/learned/__init__.py": "",
            "amrcheck/learned/trainer.py": (
                "def train():\n    from ..benchmarks import bamboo\n"
            ),
            "amrcheck/metrics/__init__.py": "from amrcheck.pairing import p\n",
            "amrcheck/pairing/__init__.py": "from ..metrics import m\n",
            "amr_lsp/__init__.py": "from amrcheck import Corpus\n",
        },
    )
    report = layers.check(tmp_path)
    upward = {(i.source, i.target, i.where) for i in report.upward}
    assert upward == {
        ("learned", "benchmarks", "amrcheck/learned/trainer.py:2"),
        ("metrics", "pairing", "amrcheck/metrics/__init__.py:1"),
    }
    assert report.circles == [["metrics", "pairing"]]
    # a name imported from the façade is an import of the façade, not a unit
    assert report.edges["amr_lsp"] == {"amrcheck"}
    assert report.unplaced == []
    assert not report.clean


def test_the_script_exits_1_on_a_violation_and_draws_dot(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "amrcheck/__init__.py": "",
            "amrcheck/graph.py": "import amrcheck.cli\n",
            "amrcheck/cli/__init__.py": "",
            "amr_lsp/__init__.py": "",
        },
    )
    bad = subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 1
    assert "amrcheck/graph.py:1: upward import: graph -> cli" in bad.stdout
    good = subprocess.run(
        [sys.executable, str(SCRIPT), "--dot"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert good.returncode == 0
    assert good.stdout.startswith("digraph layers {")
    assert '"training" -> "benchmarks";' in good.stdout
