"""What ``amrcheck score`` and ``amrcheck iaa`` add for UMR files: the
document-level layers, umatch, and the agreement per layer."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import MetricError
from ..reading.corpus import is_amr_name
from ._common import table

# UMR's reader and comparisons are imported where used: an AMR score loads
# none of them (start-up time); umr_agreement loads numpy
if TYPE_CHECKING:
    from rich.console import Console

    from ..workflows.umatch import Counts, UmatchReport
    from ..workflows.umr_agreement import LayerAgreement
    from ..workflows.umr_score import DocumentScore

#: the name of the alignment-based comparison among ``--metric`` values
UMATCH = "umatch"

#: the layers printed, in order, with their labels
_LAYERS = (
    ("sentences", "sentence graphs (smatch)"),
    ("temporal", "temporal"),
    ("modal", "modal"),
    ("coref", "coref"),
    ("document", "document level"),
    ("overall", "overall"),
)


@dataclass(slots=True)
class UmrFigures:
    """What ``score`` adds for UMR files: umatch, and (after the sentence
    metrics) the document-level layers; nothing for AMR files (``umatch``
    None)."""

    umatch: dict[str, tuple[UmatchReport, UmatchReport]] | None
    #: ``--metric umatch`` and no other metric: no search at all
    umatch_only: bool = False
    layers: dict[str, DocumentScore] | None = None

    def add_layers(self, reference: Path, candidates: list[Path]) -> None:
        if self.umatch is not None:
            self.layers = umr_scores(reference, candidates)

    def json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.umatch is not None:
            data["umatch"] = umatch_json(self.umatch)
        if self.layers is not None:
            data["umr"] = umr_json(self.layers)
        return data

    def render(self, out: Console) -> None:
        if self.layers is not None:
            render_umr(out, self.layers)
        if self.umatch is not None:
            render_umatch(out, self.umatch)

    def facts(self) -> list[str]:
        """The same figures as lines for the ``--html`` report's header: per
        candidate the layers' F1 and umatch, then each document-level triple
        missing or extra, at its place."""
        from ..workflows.umr_score import document_dict

        lines = []
        for path, score in (self.layers or {}).items():
            layers = document_dict(score)
            lines.append(
                f"{path}: UMR layers F1 — "
                + " · ".join(
                    f"{label} {layers[name]['f1']:.4f}" for name, label in _LAYERS
                )
            )
            if self.umatch is not None and path in self.umatch:
                full, sentences = self.umatch[path]
                lines.append(
                    f"{path}: umatch F1 {full.umatch.f1:.4f} (without the "
                    f"document level {sentences.umatch.f1:.4f})"
                )
            lines.extend(
                f"{item['where']}: {name} {kind}: {item['triple']}"
                for name in ("temporal", "modal", "coref")
                for kind in ("missing", "extra")
                for item in layers[name][kind]
            )
        return lines


def umr_figures(
    reference: Path,
    candidates: list[Path],
    metric: list[str] | None,
    only: str | None,
    exclude: str | None,
) -> tuple[list[str] | None, UmrFigures]:
    """``--metric`` values without umatch, and the UMR figures (none for AMR).

    Raises:
        MetricError: umatch asked for files that are not UMR.
    """
    metric, umatch_named = take_umatch(metric)
    if not _is_umr(reference):
        if umatch_named:
            raise MetricError("umatch compares UMR files (.umr, docs/umr.md) only")
        return metric, UmrFigures(None)
    figures = umatch_reports(reference, candidates, only, exclude)
    return metric, UmrFigures(figures, umatch_named and metric is None)


def _is_umr(path: Path) -> bool:
    """:func:`~amrcheck.reading.umr.is_umr_path`, without loading UMR's reader
    for a file named ``.amr`` (the engine's rule: an AMR file by name is
    read as AMR, :func:`~amrcheck.reading.corpus.is_amr_name`)."""
    if is_amr_name(path):
        return False
    from ..reading.umr import is_umr_path

    return is_umr_path(path)


def umr_named_amr(paths: Iterable[str]) -> list[str]:
    """The files among ``paths`` named ``.amr`` whose text holds UMR block
    headings: read as AMR by their name (:func:`_is_umr`), so their
    alignment and document-level blocks were broken graphs. Asked only
    after some graph could not be read: an AMR score reads no file twice."""
    from ..reading.umr import is_umr_path

    return [path for path in paths if is_amr_name(path) and is_umr_path(path)]


def take_umatch(values: list[str] | None) -> tuple[list[str] | None, bool]:
    """``--metric`` values without umatch, and whether umatch was among them."""
    if not values:
        return values, False
    names = [n.strip() for v in values for n in v.split(",") if n.strip()]
    rest = [n for n in names if n != UMATCH]
    return ([",".join(rest)] if rest else None), len(rest) != len(names)


def umr_scores(reference: Path, candidates: list[Path]) -> dict[str, DocumentScore]:
    from ..workflows.umr_score import score_umr_files

    return score_umr_files(reference, candidates)


def umatch_reports(
    reference: Path, candidates: list[Path], only: str | None, exclude: str | None
) -> dict[str, tuple[UmatchReport, UmatchReport]]:
    """Per candidate: umatch with and without the document level."""
    from ..reading.umr import read_umr
    from ..workflows.umatch import umatch

    names = [n for n in (only or "").split(",") if n.strip()]
    excluded = [n for n in (exclude or "").split(",") if n.strip()]
    gold = read_umr(reference)
    reports = {}
    for path in candidates:
        test = read_umr(path)
        reports[str(path)] = (
            umatch(gold, test, only=names, exclude=excluded),
            umatch(gold, test, document_level=False, only=names, exclude=excluded),
        )
    return reports


def umr_json(scores: dict[str, DocumentScore]) -> dict[str, Any]:
    from ..workflows.umr_score import document_dict

    return {path: document_dict(score) for path, score in scores.items()}


def _counts(counts: Counts) -> dict[str, Any]:
    return {
        "correct": counts.correct,
        "reference": counts.reference,
        "candidate": counts.candidate,
        "precision": counts.precision,
        "recall": counts.recall,
        "f1": counts.f1,
    }


def umatch_json(
    reports: dict[str, tuple[UmatchReport, UmatchReport]],
) -> dict[str, Any]:
    result = {}
    for path, (full, sentences) in reports.items():
        p = full.projections
        result[path] = {
            "tokens": full.tokens,
            "aligned_token_sets": _counts(full.aligned_token_sets),
            "node_projections": {
                "mapped_reference": p.mapped_reference,
                "mapped_candidate": p.mapped_candidate,
                "reference": p.reference,
                "candidate": p.candidate,
                "precision": p.precision,
                "recall": p.recall,
                "f1": p.f1,
            },
            "triples_in_mapped_nodes": _counts(full.mapped_triples),
            "umatch": _counts(full.umatch),
            "umatch_without_document_level": _counts(sentences.umatch),
            "realigned_tokens": full.realigned,
            "unpaired": full.unpaired,
        }
    return result


def render_umr(out: Console, scores: dict[str, DocumentScore]) -> None:
    from ..workflows.umr_score import document_dict

    for path, score in scores.items():
        layers = document_dict(score)
        grid = table(
            out,
            "layer",
            "P",
            "R",
            "F1",
            "correct/cand",
            "found/ref",
            title=f"UMR layers: {path}",
        )
        for name, label in _LAYERS:
            layer = layers[name]
            grid.add_row(
                label,
                f"{layer['precision']:.4f}",
                f"{layer['recall']:.4f}",
                f"{layer['f1']:.4f}",
                f"{layer['correct']}/{layer['candidate']}",
                f"{layer['found']}/{layer['reference']}",
            )
        out.print(grid)
        for name in ("temporal", "modal", "coref"):
            for kind in ("missing", "extra"):
                for item in layers[name][kind]:
                    out.print(f"{item['where']}: {name} {kind}: {item['triple']}")


def render_umatch(
    out: Console, reports: dict[str, tuple[UmatchReport, UmatchReport]]
) -> None:
    for path, (full, sentences) in reports.items():
        p = full.projections
        grid = table(
            out,
            "umatch figure",
            "correct",
            "reference",
            "candidate",
            "P",
            "R",
            "F1",
            title=f"umatch (word alignments, as compare_umr.pl): {path}",
        )
        rows = [
            ("aligned token sets", full.aligned_token_sets),
            ("triples in mapped nodes", full.mapped_triples),
            ("umatch without document level", sentences.umatch),
            ("umatch", full.umatch),
        ]
        grid.add_row(
            "node projections",
            f"{p.mapped_reference}/{p.mapped_candidate}",
            str(p.reference),
            str(p.candidate),
            f"{p.precision:.4f}",
            f"{p.recall:.4f}",
            f"{p.f1:.4f}",
        )
        for label, counts in rows:
            grid.add_row(
                label,
                str(counts.correct),
                str(counts.reference),
                str(counts.candidate),
                f"{counts.precision:.4f}",
                f"{counts.recall:.4f}",
                f"{counts.f1:.4f}",
            )
        out.print(grid)
        if full.realigned:
            out.print(
                f"{path}: tokens differ in {', '.join(full.realigned)}; the "
                "token sequences were aligned first (difflib)"
            )
        if full.unpaired:
            out.print(
                f"{path}: no sentence {', '.join(full.unpaired)}; its reference "
                "nodes count as unmapped"
            )


def layers_json(
    pairs: list[tuple[str, str, dict[str, LayerAgreement]]],
) -> list[dict[str, Any]]:
    """``amrcheck iaa``'s UMR layers as JSON-ready data."""
    return [
        {
            "a": a,
            "b": b,
            **{
                name: {
                    "f1": layer.f1,
                    "low": layer.low,
                    "high": layer.high,
                    "differences": {
                        key: [str(d) for d in found]
                        for key, found in layer.differences.items()
                    },
                }
                for name, layer in layers.items()
            },
        }
        for a, b, layers in pairs
    ]


def layer_queue_json(
    pairs: list[tuple[str, str, dict[str, LayerAgreement]]],
    texts: dict[str, str | None] | None = None,
) -> list[dict[str, Any]]:
    """The layers' adjudication queue as JSON-ready data; ``texts``: each
    sentence's words by key."""
    from ..workflows.umr_agreement import layer_queue

    return [
        {
            "id": sentence.key,
            "snt": sentence.text,
            "lowest_f1": sentence.lowest,
            "disagreements": [
                {
                    "a": d.a,
                    "b": d.b,
                    "layer": d.layer,
                    "f1": d.f1,
                    "lines": [str(line) for line in d.lines],
                    "places": [line.to_dict() for line in d.lines],
                }
                for d in sentence.disagreements
            ],
        }
        for sentence in layer_queue(pairs, texts)
    ]


def render_layer_queue(
    out: Console,
    pairs: list[tuple[str, str, dict[str, LayerAgreement]]],
    top: int | None,
    names: dict[str, str],
    texts: dict[str, str | None] | None = None,
) -> None:
    """The sentences annotators disagree on in the layers beyond the graph,
    lowest F1 first, each with its words (``texts``, by key) and each
    difference with its place; ``names``: each annotator's file -> the
    name the other tables give it."""
    from ..workflows.umr_agreement import LAYERS, layer_queue

    queue = layer_queue(pairs, texts)
    layers = f"{', '.join(LAYERS[:-1])} and {LAYERS[-1]}"
    out.print(
        f"UMR layers: adjudication queue (lowest F1 first; {', '.join(LAYERS)}):"
        if queue
        else f"UMR layers: the annotators agree on every sentence's {layers}."
    )
    for sentence in queue[:top]:
        words = f"  {sentence.text}" if sentence.text else ""
        out.print(
            f"{sentence.key}  lowest {sentence.lowest:.4f}{words}",
            markup=False,
            soft_wrap=True,
        )
        for d in sentence.disagreements:
            a, b = names.get(d.a, d.a), names.get(d.b, d.b)
            out.print(f"  {a} vs {b}  {d.layer} F1 {d.f1:.4f}", markup=False)
            for line in d.lines:
                out.print(f"    {line}", markup=False, soft_wrap=True)


def render_layers(
    out: Console,
    pairs: list[tuple[str, str, dict[str, LayerAgreement]]],
    confidence: float,
) -> None:
    """One table: each pair of annotators, each UMR layer's F1 and interval."""
    from ..workflows.umr_agreement import LAYERS

    grid = table(
        out,
        "A",
        "B",
        *(f"{name} F1 ({confidence:.0%} CI)" for name in LAYERS),
        title="UMR layers, pairwise (A as reference)",
    )
    for a, b, layers in pairs:
        grid.add_row(
            a,
            b,
            *(
                _with_interval(layers[name])
                for name in LAYERS
            ),
        )
    out.print(grid)


def _with_interval(layer: LayerAgreement) -> str:
    return f"{layer.f1:.4f} ({layer.low:.2f}–{layer.high:.2f})"
