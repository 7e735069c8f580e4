"""amr_lsp.umr_scores without a server: a UMR document scored version by version."""

from __future__ import annotations

from pathlib import Path

from amr_lsp.compare import Comparer
from amr_lsp.config import Settings
from amr_lsp.references import ReferenceStore
from amr_lsp.umr import UmrCache, UmrOptions, analyze_umr
from amr_lsp.umr_scores import KeptAlignments, score_umr
from amr_lsp.workspace import ReadPolicy
from amrcheck.workflows.umr_score import document_dict, score_umr_files
from tests.conftest import data_path

REFERENCE = data_path("umr") / "english_umr-0003.umr"


def test_layers_after_edits_are_a_fresh_scores(tmp_path: Path) -> None:
    """The node mappings kept from the last version give the layers that
    scoring the edited file afresh gives (each edit: one sentence)."""
    gold = tmp_path / "gold.umr"
    gold.write_text(REFERENCE.read_text(encoding="utf-8"), encoding="utf-8")
    document = tmp_path / "doc.umr"
    references = ReferenceStore()
    references.policy = ReadPolicy.build([tmp_path], Settings())
    comparer, cache, kept = Comparer("smatch", {}), UmrCache(), KeptAlignments()
    text = "# ::reference gold.umr\n" + gold.read_text(encoding="utf-8")
    edits = [
        ("(s1f / freedom)", "(s1f / liberty)"),
        (":temporal ((s2s2 :after s4p))", ":temporal ((s2s2 :before s4p))"),
        ("(s1f / liberty)", "(s1f / freedom)"),
    ]
    previous = None
    for version, (old, new) in enumerate([("", ""), *edits], start=1):
        text = text.replace(old, new, 1) if old else text
        umr = analyze_umr(document.as_uri(), version, text, "utf-16", cache,
                          UmrOptions())
        analysis = score_umr(umr, text, Settings(), comparer, references, tmp_path,
                             previous, kept)
        document.write_text(text, encoding="utf-8")
        fresh = score_umr_files(gold, [document])[str(document)]
        assert analysis.umr is not None
        assert document_dict(analysis.umr) == document_dict(fresh)
        previous = analysis
    assert analysis.umr.groups["temporal"].f1 < 1.0  # one relation left turned
    assert analysis.document_score is not None and analysis.document_score.f1 == 1.0
