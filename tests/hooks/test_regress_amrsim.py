"""``amr-regress`` gating on the learned metric amrsim."""

from __future__ import annotations

from pathlib import Path

import pytest

from amrcheck.hooks.regress import main
from tests.hooks.conftest import put

pytest.importorskip(
    "torch", reason="the learned extra: pip install 'amrcheck[learned]'"
)


def test_regress_hook_with_amrsim(annotation_repo: Path, capsys) -> None:
    (annotation_repo / ".amrcheck.toml").write_text(
        'metric = "amrsim"\n\n[[regress.reference]]\nfiles = "parser/{doc}.amr"\n'
        'reference = "gold/{doc}.amr"\nmin-f1 = 0.9999\n'
    )
    put(annotation_repo, "parser/ch1.amr", "parse_regressed.amr")
    assert main(["parser/ch1.amr"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("parser/ch1.amr: min-f1: amrsim F1 0.9")
    put(annotation_repo, "parser/ch1.amr", "gold.amr")
    assert main(["parser/ch1.amr"]) == 0
