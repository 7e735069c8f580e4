"""One way to count a difference (issue 33): the lens, the hovers, both
forms of diff diagnostics, ``amrcheck diff`` and the HTML reports say
missing / extra / relabelled with the same totals for the same pair.

Real Little Prince pairs: each of the first graphs of the book against
the next sentence's graph under its id (annotations that differ much,
with relabels, missing and extra triples and other roots).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from lsprotocol import types

from amr_lsp.analysis import Analysis, analyze
from amr_lsp.compare import Comparer
from amr_lsp.config import DiffDiagnostics, Settings
from amr_lsp.documents import DocumentStore
from amr_lsp.hover import hover_markdown
from amr_lsp.lenses import lens_title
from amr_lsp.references import ReferenceStore
from amrcheck import Graph, TripleKind, diff_corpora, get_metric, read_corpus
from amrcheck.reading.locate import token_at
from amrcheck.render import diff_report, score_report
from amrcheck.validation.propbank import load_frames
from amrcheck.workflows.evaluate import evaluate
from tests.lsp.shifted import shifted_pairs

GRAPHS = 12
COUNTS = re.compile(r"(\d+) missing, (\d+) extra, (\d+) relabelled")
Counts = tuple[int, int, int]  # missing, extra, relabelled


def analysis_of(annotation: Path, root: Path, form: DiffDiagnostics) -> Analysis:
    settings = Settings(
        references={"annotations/*.amr": "gold/{name}.amr"}, diff_diagnostics=form
    )
    text = annotation.read_text(encoding="utf-8")
    return analyze(
        DocumentStore().parse(annotation.as_uri(), 1, text), settings,
        Comparer("smatch", {}), ReferenceStore(), root,
    )


def report_counts(html: str, first: int) -> dict[str, Counts]:
    """The ``− + ~`` cells of a report's summary rows (from cell ``first``) by id."""
    found = {}
    for cells in re.findall(r'<tr data-status="[^"]*"[^>]*>(.*?)</tr>', html):
        texts = [
            re.sub(r"<[^>]+>", "", cell)
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", cells)
        ]
        missing, extra, relabelled = (int(t) for t in texts[first : first + 3])
        found[texts[0]] = (missing, extra, relabelled)
    return found


def hover_counts(analysis: Analysis, index: int, graph: Graph) -> tuple[int, int]:
    """(extra, relabelled) as the hovers say them: a role's hover for each
    edge, the node's hover for each concept, the root's node for the root."""
    corpus, frames = analysis.parsed.corpus, load_frames()
    extra = relabelled = 0
    said: list[str] = []
    for i, kind in enumerate(graph.kinds):
        if kind is TripleKind.INSTANCE:
            token = token_at(corpus, graph.target_span(i).start)
            assert token is not None
            text = hover_markdown(token, analysis, frames) or ""
            written = f"`{graph.written(i)}`"
            said += [line for line in text.splitlines() if written in line][:1]
        else:
            token = token_at(corpus, graph.role_span(i).start)
            assert token is not None
            text = hover_markdown(token, analysis, frames) or ""
            said.append(text.splitlines()[-1])
    for line in said:
        extra += "✗ extra" in line
        relabelled += "relabelled" in line
    comparison = analysis.graphs[index].comparison
    assert comparison is not None
    extra += any(t.index < 0 for t in comparison.unpaired_extra())  # another root
    return extra, relabelled


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot not installed")
def test_every_front_end_counts_a_little_prince_pair_alike(tmp_path: Path) -> None:
    gold, annotation = shifted_pairs(tmp_path, GRAPHS)
    smatch = get_metric("smatch")
    diffed = {
        g.id: g.change_counts for g in diff_corpora(gold, annotation, smatch).graphs
    }
    cli = {key: (c.missing, c.extra, c.relabelled) for key, c in diffed.items()}
    assert len(cli) == GRAPHS
    # real differences of every kind, not a trivial agreement
    assert all(sum(c[i] for c in cli.values()) > 5 for i in range(3))
    reference, candidate = read_corpus(gold), read_corpus(annotation)
    html_diff = diff_report(diff_corpora(reference, candidate, smatch),
                            reference, candidate, smatch)
    evaluation = evaluate(reference, [candidate], [smatch])
    html_score = score_report(evaluation, reference, [candidate], [smatch])
    assert report_counts(html_diff, 5) == cli
    assert report_counts(html_score, 5) == cli

    grouped = analysis_of(annotation, tmp_path, "grouped")
    per_triple = analysis_of(annotation, tmp_path, "per-triple")
    messages = [d.message for d in grouped.diagnostics["amrcheck-diff"]]
    for index, report in enumerate(grouped.graphs):
        key, graph = report.entry.id, report.entry.graph
        assert key is not None and graph is not None
        missing, extra, relabelled = cli[key]
        words = f"{missing} missing, {extra} extra, {relabelled} relabelled"
        # the lens and the document score
        lens = COUNTS.search(lens_title(grouped, report))
        assert lens is not None and tuple(int(n) for n in lens.groups()) == cli[key]
        # the grouped diagnostic: its count, and one related place a difference
        mine = [m for m in messages if m.startswith(f"differs from gold/lp.amr#{key} ")]
        if missing + extra + relabelled:
            assert len(mine) == 1 and f"({words})" in mine[0]
        # the per-triple diagnostics: one a relabelling or extra triple, the
        # missing ones listed on one
        own = [
            d for d in per_triple.diagnostics["amrcheck-diff"]
            if d.range.start.line >= report.entry.source.line_column(graph.start)[0] - 1
            and d.range.end.line <= report.entry.source.line_column(graph.end)[0] - 1
        ]
        kinds = [_kind(d) for d in own]
        assert kinds.count("relabelled") == relabelled, (key, kinds)
        assert kinds.count("extra") == extra, (key, kinds)
        listed = [d for d in own if d.code == "diff-missing"]
        assert sum(len(d.related_information or []) for d in listed) == missing
        # the hovers
        assert hover_counts(grouped, index, graph) == (extra, relabelled), key
    summary = grouped.score_summary()
    assert (summary["missing"], summary["extra"], summary["relabelled"]) == tuple(
        sum(c[i] for c in cli.values()) for i in range(3)
    )


def _kind(diagnostic: types.Diagnostic) -> str:
    if diagnostic.code == "diff-missing":
        return "missing"
    if diagnostic.code == "diff-relabel" or "relabels" in diagnostic.message:
        return "relabelled"
    return "extra"
