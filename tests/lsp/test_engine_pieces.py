"""Unit tests of the server's engine-side pieces: pairing, references, cache."""

from __future__ import annotations

from pathlib import Path

from amr_lsp.analysis import Analysis, analyze
from amr_lsp.compare import Comparer
from amr_lsp.completion import context_at
from amr_lsp.config import Settings
from amr_lsp.documents import DocumentStore
from amr_lsp.lenses import lens_report, unresolved_lenses
from amr_lsp.references import (
    ReferenceChoice,
    ReferenceStore,
    choose_reference,
)
from amrcheck import Entry, read_string, validate
from amrcheck.validation.validate import GraphFindingsCache
from tests.conftest import data_path

LSP_DATA = data_path("lsp")


def analyze_pair(folder: Path, reference: str, document: str) -> Analysis:
    """``document`` (annotations/x.amr) analysed against ``reference`` (gold/x.amr)."""
    for name, text in (("gold", reference), ("annotations", document)):
        (folder / name).mkdir(exist_ok=True)
        (folder / name / "x.amr").write_text(text, encoding="utf-8")
    path = folder / "annotations" / "x.amr"
    return analyze(
        DocumentStore().parse(path.as_uri(), 1, document),
        Settings(references={"annotations/*.amr": "gold/{name}.amr"}),
        Comparer("smatch", {}), ReferenceStore(), folder,
    )


def partners(analysis: Analysis) -> list[str | None]:
    return [
        g.comparison.reference.label if g.comparison is not None else None
        for g in analysis.graphs
    ]


def test_pairing_falls_back_to_position_without_ids(tmp_path: Path) -> None:
    analysis = analyze_pair(
        tmp_path, "(a / x)\n\n(b / y)\n", "(b / y)\n\n(a / x)\n\n(c / z)\n"
    )
    assert partners(analysis) == ["#1", "#2", None]
    assert analysis.graphs[2].note == "no reference graph for #3"
    assert analysis.paired_by == (
        "graphs paired by position: 2 graphs have no ::id in "
        f"{tmp_path / 'gold' / 'x.amr'} (first: {tmp_path / 'gold' / 'x.amr'}:1:1)"
    )


def test_an_id_the_document_shares_never_pairs_one_reference_graph_twice_issue_33(
    tmp_path: Path,
) -> None:
    # the old rule paired both graphs with reference graph b; the engine's
    # rule pairs by position (a graph has no id), where ids a and b differ:
    # the files cannot be paired, as `amrcheck score` says
    analysis = analyze_pair(
        tmp_path,
        "# ::id a\n(a / x)\n\n# ::id b\n(b / y)\n",
        "# ::id b\n(b / y)\n\n(c / z)\n",
    )
    assert partners(analysis) == [None, None] and analysis.document_score is None
    (problem,) = [
        d for d in analysis.diagnostics["amrcheck-diff"] if d.code == "pairing"
    ]
    assert "::id 'a' is paired by position with ::id 'b'" in problem.message
    assert all(g.note and "cannot be paired" in g.note for g in analysis.graphs)


def test_reordered_ids_pair_by_id_and_absent_graphs_count_as_empty(
    tmp_path: Path,
) -> None:
    analysis = analyze_pair(
        tmp_path,
        "# ::id a\n(a / x)\n\n# ::id b\n(b / y)\n\n# ::id c\n(c / z)\n",
        "# ::id c\n(c / z)\n\n# ::id a\n(a / x)\n",
    )
    assert partners(analysis) == ["c", "a"]
    assert analysis.paired_by == "graphs paired by ::id"
    assert [e.label for e in analysis.absent] == ["b"]
    assert analysis.document_score is not None
    assert round(analysis.document_score.f1, 4) == round(2 * 6 / (6 + 9), 4)


def test_by_position_a_reference_graph_past_the_document_s_end_counts_as_empty(
    tmp_path: Path,
) -> None:
    analysis = analyze_pair(tmp_path, "(a / x)\n\n(b / y)\n", "(a / x)\n")
    assert partners(analysis) == ["#1"]
    assert [e.label for e in analysis.absent] == ["#2"]
    assert analysis.document_score is not None and analysis.document_score.f1 < 1


def test_header_reference_wins_over_settings() -> None:
    corpus = read_string("# ::reference gold.amr\n# ::id 1\n(a / b)\n")
    choice = choose_reference(
        corpus, Path("/w/x/doc.amr"), Path("/w"), {"x/*.amr": "g/{name}.amr"}
    )
    assert (choice.path, choice.origin) == (Path("/w/x/gold.amr"), "header")


def test_settings_template_fields() -> None:
    choice = choose_reference(
        read_string("(a / b)"), Path("/w/ann/sub/doc.amr"), Path("/w"),
        {"ann/*/*.amr": "gold/{dir}/{filename}"},
    )
    assert choice.path == Path("/w/gold/ann/sub/doc.amr")
    assert choose_reference(read_string("(a / b)"), Path("/w/other.amr"), Path("/w"),
                            {"ann/*.amr": "{name}"}) is None


class Versions:
    """Versions of the test pair's annotation, analysed as the server does
    (one document store, reference store, comparer and findings cache)."""

    def __init__(self) -> None:
        self.path = LSP_DATA / "annotations" / "lpp.amr"
        self.text = self.path.read_text(encoding="utf-8")
        self.documents, self.references = DocumentStore(), ReferenceStore()
        self.comparer, self.cache = Comparer("smatch", {}), GraphFindingsCache()

    def analyze(self, number: int, text: str) -> Analysis:
        return analyze(
            self.documents.parse(self.path.as_uri(), number, text),
            Settings(references={"annotations/*.amr": "gold/{name}.amr"}),
            self.comparer, self.references, LSP_DATA, self.cache,
        )


def test_an_edit_rescores_only_the_graphs_it_touched() -> None:
    versions = Versions()
    first = versions.analyze(1, versions.text)
    assert versions.comparer.computed == 8
    # one character typed into lpp_1943.2, and every later graph moves
    edited = versions.text.replace("(m / beautiful)", "(m / beautifull)")
    second = versions.analyze(2, edited)
    assert versions.comparer.computed == 9
    assert [g.comparison is not None for g in second.graphs] == [True] * 8
    # cached results are re-anchored on the new text
    moved = second.graphs[4].entry.graph.start - first.graphs[4].entry.graph.start
    assert moved == 1
    assert second.diagnostics["amrcheck-diff"][-1].range.start.character == (
        first.diagnostics["amrcheck-diff"][-1].range.start.character
    )


def test_a_broken_graph_keeps_its_score_stale_and_counts_as_0_issue_21() -> None:
    path = LSP_DATA / "annotations" / "lpp.amr"
    text = path.read_text(encoding="utf-8")
    documents, references = DocumentStore(), ReferenceStore()
    comparer = Comparer("smatch", {})

    def version(number: int, source: str, previous: Analysis | None = None) -> Analysis:
        return analyze(
            documents.parse(path.as_uri(), number, source),
            Settings(references={"annotations/*.amr": "gold/{name}.amr"}),
            comparer,
            references,
            LSP_DATA,
            previous=previous,
        )

    first = version(1, text)
    assert first.document_score is not None
    before = first.graphs[3].comparison
    assert before is not None and before.reference.label == "lpp_1943.4"
    # lpp_1943.4 broken, and a new graph typed above it: found by its ::id
    # (the new graph has one too: else every graph pairs by position, as
    # `amrcheck score` pairs them, issue 33)
    broken = text.replace("(b / be-located-at-91", "((b / be-located-at-91")
    broken = broken.replace(
        "# ::id lpp_1943.4", "# ::id new\n(n / new)\n\n# ::id lpp_1943.4"
    )
    second = version(2, broken, first)
    report = second.graphs[4]
    assert report.entry.id == "lpp_1943.4" and report.comparison is None
    assert report.stale is before and report.empty is not None
    assert report.empty.f1 == 0.0
    assert second.document_score is not None
    assert second.document_score.f1 < first.document_score.f1
    # still broken in the next version: the last score that parsed stays
    third = version(3, broken + "\n", second)
    assert third.graphs[4].stale is before
    summary = third.score_summary()
    assert [c["graph"] for c in summary["counted_empty"]] == ["lpp_1943.4"]
    assert summary["counted_empty"][0]["where"].startswith(f"{path}:")


def test_an_edit_revalidates_only_the_graph_it_touched() -> None:
    versions = Versions()
    versions.analyze(1, versions.text)
    assert versions.cache.checked == 8
    # a line typed into lpp_1943.2: every later graph (and finding) moves down
    edited = versions.text.replace("(m / beautiful)", "(m / beautiful)\n  :mod -")
    second = versions.analyze(2, edited)
    assert versions.cache.checked == 9
    fresh = validate(second.parsed.corpus)
    assert [str(f) for f in second.findings] == [str(f) for f in fresh]
    assert "W402" in [f.code for f in fresh]


def test_lenses_are_reused_while_their_place_is_unchanged() -> None:
    versions = Versions()
    uri = versions.path.as_uri()
    first = versions.analyze(1, versions.text)
    lenses = unresolved_lenses(first)
    assert [lens.data for lens in lenses] == [[uri, i] for i in range(8)]
    assert all(lens.command is None for lens in lenses)
    # a line added inside lpp_1943.2: lenses 0-1 stay, 2-7 move down a line
    edited = versions.text.replace("(m / beautiful)", "(m / beautiful)\n  :mod -")
    second = versions.analyze(2, edited)
    again = unresolved_lenses(second, lenses)
    assert [a is b for a, b in zip(again, lenses, strict=True)] == [True] * 2 + [
        False
    ] * 6
    assert [a.range.start.line - b.range.start.line
            for a, b in zip(again, lenses, strict=True)] == [0] * 2 + [1] * 6
    # a lens of version 1 resolves to the graph now at its place, or to none
    assert lens_report(second, 2, again[2].range.start) is second.graphs[2]
    assert lens_report(second, 2, lenses[3].range.start) is None
    assert lens_report(second, 0, again[5].range.start) is second.graphs[5]


def test_reference_read_once_until_it_changes(tmp_path: Path) -> None:
    gold = tmp_path / "gold.amr"
    gold.write_text("# ::id a\n(a / b)\n", encoding="utf-8")
    store = ReferenceStore()
    choice = ReferenceChoice(gold, "annotations/*.amr")
    first = store.get(choice, None)
    assert store.get(choice, None) is first
    gold.write_text("# ::id a\n(a / c)\n\n", encoding="utf-8")
    second = store.get(choice, None)
    assert second is not first and second.generation > first.generation


def test_completion_context() -> None:
    text = '(w / want-01 :ARG1 (g / go-02 :op1 "(" ) :AR'
    context = context_at(text, 0, len(text))
    assert (context.kind, context.prefix, context.node_concept) == (
        "role", ":AR", "want-01"
    )
    assert context_at("(w / want-01 :ARG0 ", 0, 19).kind == "variable"
    assert context_at("# ::snt hello ", 0, 14).kind == "none"


def test_a_comparison_s_size_estimate_follows_what_it_holds() -> None:
    from amrcheck import read_corpus
    from amrcheck.cache import approximate_size

    entries = [e for e in read_corpus(LSP_DATA / "gold" / "lpp.amr") if e.graph]
    for metric in ("smatch", "rematch"):
        comparer = Comparer(metric, {})
        for candidate in entries:
            for reference in entries:
                assert candidate.graph is not None
                found = comparer.compare(candidate.graph, reference, 0)
                held = approximate_size(found, keep_out=(Entry,))
                assert 0.75 < found.approximate_bytes() / held < 1.25, (metric, held)
