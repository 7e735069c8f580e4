"""``amrcheck iaa A B [C ...]``: inter-annotator agreement and the adjudication queue.

Thin: :func:`amrcheck.workflows.iaa.agreement` on the files (streamed, in step:
memory does not grow with their graphs), render (text,
``--csv`` per-sentence table or ``--json``; schema in ``docs/cli.md``).
A graph that cannot be read counts as an empty graph (the engine's rule;
``--skip-unreadable`` leaves it out). Exit status 0; 1 when a graph
cannot be read; 2 on errors (unreadable files, fewer than two annotators,
no sentence two annotators share, ``--strict`` with syntax errors); 130
on Ctrl-C.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from rich.console import Console
from rich.text import Text

from ..metrics.smatch import Smatch, search_note
from ..pairing.graphs import PairingError
from ..reading.corpus import read_errors
from ..reading.umr import is_umr_path
from ..reading.umr_corpus import read_umr_corpus
from ..validation.filecheck import plural
from ..workflows.diff import Change
from . import app
from ._common import (
    ClusterOption,
    JobsOption,
    PairByChoice,
    PairByOption,
    TimeBudgetOption,
    announce_pairing,
    build_metrics,
    change_line,
    console,
    describe_settings,
    fail,
    graphs_in,
    guarded,
    pairing_dict,
    progress_bar,
    report_input_errors,
    table,
    time_budget_options,
    workers,
)
from ._umr_score import (
    layer_queue_json,
    layers_json,
    render_layer_queue,
    render_layers,
)

if TYPE_CHECKING:  # imported where used: they load numpy (not for --help)
    from ..workflows.iaa import Agreement, SentenceAgreement
    from ..workflows.umr_agreement import LayerAgreement

#: bumped only when the JSON output changes incompatibly
JSON_SCHEMA_VERSION = 1


def _f(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def search_counts(
    result: Agreement, a: str | None = None, b: str | None = None
) -> dict[str, int]:
    """Sentence pairs aligned (of annotators ``a`` and ``b``; all without),
    how many proven optimal, and how many the time budget cut."""
    scored = [
        pair.score.counts
        for sentence in result.sentences
        for pair in sentence.pairs
        if a is None or (pair.a, pair.b) == (a, b)
    ]
    return {
        "pairs": len(scored),
        "optimal": sum(int(c.get("optimal", 0)) for c in scored),
        "cut": sum(int(c.get("cut", 0)) for c in scored),
    }


def json_report(result: Agreement) -> dict[str, Any]:
    return {
        "version": JSON_SCHEMA_VERSION,
        "annotators": [
            {"name": n, "path": p, "graphs": g}
            for n, p, g in zip(result.names, result.paths, result.graphs, strict=True)
        ],
        "paired_by": result.matching.by,
        "note": result.matching.note,
        "pairing": pairing_dict(
            result.matching.by, result.matching.note, result.matching.mismatches
        ),
        "metric": "smatch",
        "settings": result.settings,
        "matrix": result.matrix(),
        "pairs": [
            {
                "a": p.a,
                "b": p.b,
                "sentences": p.sentences,
                "f1": p.score.f1,
                "precision": p.score.precision,
                "recall": p.score.recall,
                "ci": None if p.ci is None else {"low": p.ci.low, "high": p.ci.high},
                "aspects": {k: s.f1 for k, s in p.aspects.items()},
                "search": search_counts(result, p.a, p.b),
            }
            for p in result.pairs
        ],
        "search": search_counts(result),
        "mean": {
            "f1": result.mean.estimate,
            "low": result.mean.low,
            "high": result.mean.high,
            "confidence": result.mean.confidence,
            "resamples": result.mean.resamples,
        },
        "aspects": result.aspects,
        "skip_unreadable": result.skip_unreadable,
        "unreadable": [
            {"id": key, "annotator": name, "error": why}
            for key, name, why in result.unreadable
        ],
        "sentences": [
            {
                "id": s.key,
                "snt": s.text,
                "places": places_json(s),
                "annotators": s.annotators,
                "missing": s.missing,
                "unreadable": list(s.unreadable),
                "mean_f1": s.mean_f1,
                "min_f1": None if s.lowest is None else s.lowest.score.f1,
                "pairs": [
                    {
                        "a": p.a,
                        "b": p.b,
                        "f1": p.score.f1,
                        "changes": [change_json(c) for c in p.changes],
                    }
                    for p in s.pairs
                ],
            }
            for s in result.sentences
        ],
        "errors": result.errors,
    }


def change_json(change: Change) -> dict[str, Any]:
    """A change as ``diff --json`` gives it, each side with its ``file``
    (the two sides are two annotators' files)."""
    data = change.to_dict()
    for side, place in (("old", change.old), ("new", change.new)):
        if place is not None:
            data[side] = {"file": place.path, **data[side]}
    return data


def places_json(sentence: SentenceAgreement) -> list[dict[str, Any]]:
    """Where each annotator's graph of ``sentence`` is."""
    return [
        {"annotator": name, "file": p.path, "line": p.line, "column": p.column}
        for name, p in sentence.places.items()
    ]


def write_csv(result: Agreement) -> None:
    """The adjudication queue, one row per sentence, one F1 column per pair,
    then one column per annotator: where its graph is (``file:line:col``,
    empty where it lacks the sentence), for the adjudicator to open."""
    couples = [(p.a, p.b) for p in result.pairs]
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(
        ["id", "snt", "annotators", "missing", "unreadable", "mean_f1", "min_f1"]
        + [f"{a}~{b}" for a, b in couples]
        + [f"place {name}" for name in result.names]
    )
    for s in result.sentences:
        f1s = {(p.a, p.b): p.score.f1 for p in s.pairs}
        writer.writerow(
            [
                s.key,
                s.text or "",
                len(s.annotators),
                " ".join(s.missing),
                " ".join(s.unreadable),
                "" if s.mean_f1 is None else repr(s.mean_f1),
                "" if s.lowest is None else repr(s.lowest.score.f1),
            ]
            + [repr(f1s[c]) if c in f1s else "" for c in couples]
            + [str(s.places[n]) if n in s.places else "" for n in result.names]
        )


def _matrix(out: Console, result: Agreement, confidence: str) -> None:
    grid = table(
        out,
        "",
        *result.names,
        title=f"pairwise agreement (smatch F1, micro; {confidence} CI)",
    )
    cis = {frozenset((p.a, p.b)): p.ci for p in result.pairs}
    for i, row in enumerate(result.matrix()):
        cells = []
        for j, value in enumerate(row):
            ci = cis.get(frozenset((result.names[i], result.names[j])))
            cells.append(
                _f(value)
                if i == j or ci is None or value is None
                else f"{value:.4f} [{ci.low:.2f}–{ci.high:.2f}]"
            )
        grid.add_row(result.names[i], *cells)
    out.print(grid)


def _aspects(out: Console, result: Agreement) -> None:
    grid = table(
        out,
        "aspect",
        "mean F1",
        *(f"{p.a}~{p.b}" for p in result.pairs),
        title="agreement per aspect",
    )
    for name, value in result.aspects.items():
        grid.add_row(
            name,
            _f(value),
            *(_f(p.aspects[name].f1) if p.aspects else "-" for p in result.pairs),
        )
    out.print(grid)


def _queue(out: Console, result: Agreement, top: int | None) -> None:
    out.print(Text("adjudication queue (lowest agreement first):", style="bold"))
    for sentence in result.sentences[:top]:
        head = Text(f"{sentence.key}", style="bold")
        if sentence.mean_f1 is None:
            only = ", ".join(sentence.annotators) or "nobody"
            head.append(f"  only {only}", style="dim")
        else:
            head.append(f"  mean {sentence.mean_f1:.4f}")
            if sentence.missing:
                missing = ", ".join(sentence.missing)
                head.append(f"  missing: {missing}", style="yellow")
        if sentence.unreadable:
            unreadable = ", ".join(sentence.unreadable)
            head.append(f"  unreadable: {unreadable}", style="red")
        if sentence.text:
            head.append(f"  {sentence.text}", style="dim")
        out.print(head)
        out.print(
            "  graphs: "
            + ", ".join(f"{place} ({name})" for name, place in sentence.places.items()),
            markup=False,
            soft_wrap=True,
            style="dim",
        )
        for pair in sorted(sentence.pairs, key=lambda p: p.score.f1):
            broken = [n for n in (pair.a, pair.b) if n in sentence.unreadable]
            if broken:
                out.print(
                    Text(
                        f"  {pair.a} vs {pair.b}  F1 {pair.score.f1:.4f}  "
                        f"({' and '.join(broken)}: graph cannot be read)",
                        style="cyan",
                    )
                )
            elif pair.changes:
                out.print(
                    Text(
                        f"  {pair.a} vs {pair.b}  F1 {pair.score.f1:.4f}  "
                        f"(- {pair.a} only, + {pair.b} only)",
                        style="cyan",
                    )
                )
            for change in pair.changes:
                out.print(Text("  ") + change_line(change, files=True), soft_wrap=True)


def render(out: Console, result: Agreement, top: int | None) -> None:
    names = zip(result.names, result.graphs, strict=True)
    out.print("annotators: " + ", ".join(f"{n} ({g} graphs)" for n, g in names))
    out.print(f"metric: smatch ({describe_settings(result.settings)})")
    confidence = f"{result.mean.confidence:.0%}"
    _matrix(out, result, confidence)
    mean = result.mean
    out.print(
        Text(
            f"mean pairwise agreement: {mean.estimate:.4f} "
            f"({confidence} CI {mean.low:.4f}–{mean.high:.4f})",
            style="bold",
        )
    )
    out.print(search_line(result))
    for line in unreadable_lines(result):
        out.print(line)
    _aspects(out, result)
    _queue(out, result, top)


def search_line(result: Agreement) -> str:
    """How the sentence pairs' alignments were found: proven optimal, or
    cut by the time budget (their F1 then a lower bound)."""
    counts = search_counts(result)
    note = search_note(
        {"optimal": counts["optimal"], "cut": counts["cut"]}, counts["pairs"]
    )
    return f"smatch search over the sentence pairs: {note}"


def unreadable_lines(result: Agreement) -> list[str]:
    """The graphs that cannot be read, how they count, and where each is."""
    if not result.unreadable:
        return []
    count = plural(len(result.unreadable), "graph")
    how = (
        "left out, as if their annotators lacked the sentence (--skip-unreadable)"
        if result.skip_unreadable
        else "each counted as an empty graph (F1 0 with every other annotator)"
    )
    return [f"{count} unreadable, {how}:"] + [
        f"  {why} ({name}, sentence {key})" for key, name, why in result.unreadable
    ]


def _errors(files: list[Path]) -> list[str]:
    return [
        e
        for path in files
        for e in (
            [str(f) for f in read_umr_corpus(path)[0].errors]
            if is_umr_path(path)
            else read_errors(path)
        )
    ]


def _output(
    result: Agreement, as_json: bool, as_csv: bool, top: int | None,
    layers: list[tuple[str, str, dict[str, LayerAgreement]]] | None = None,
    confidence: float = 0.95,
    files: list[Path] | None = None,
) -> None:
    if not as_json:
        matching = result.matching
        announce_pairing("iaa", matching.by, matching.note, matching.mismatches)
    # the layers' queue shows each sentence's words, as the graphs' queue does
    texts = {s.key: s.text for s in result.sentences}
    if as_json:
        data = json_report(result)
        if layers is not None:
            data["umr_layers"] = layers_json(layers)
            data["umr_queue"] = layer_queue_json(layers, texts)
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
    elif as_csv:
        write_csv(result)
        for line in unreadable_lines(result):  # no report: the places go to stderr
            typer.echo(line, err=True)
    else:
        render(console(), result, top)
        if layers is not None:
            render_layers(console(), layers, confidence)
            # annotators named as in the tables above (file names' stems)
            names = dict(zip(map(str, files or []), result.names, strict=False))
            render_layer_queue(console(), layers, top, names, texts)


@app.command()
def iaa(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE...", help="One AMR file per annotator (two or more)."
        ),
    ],
    time_budget: TimeBudgetOption = None,
    option: Annotated[
        Optional[list[str]],  # noqa: UP007
        typer.Option("--option", "-o", help="smatch option key=value (repeatable)."),
    ] = None,
    resamples: Annotated[int, typer.Option(help="Bootstrap resamples.")] = 1000,
    confidence: Annotated[float, typer.Option(help="Interval confidence.")] = 0.95,
    top: Annotated[
        Optional[int],  # noqa: UP007
        typer.Option(help="Show only the N least agreed sentences."),
    ] = None,
    by: PairByOption = PairByChoice.AUTO,
    jobs: JobsOption = 1,
    cluster: ClusterOption = None,
    strict: Annotated[
        bool, typer.Option(help="Stop on syntax errors instead of going on.")
    ] = False,
    skip_unreadable: Annotated[
        bool,
        typer.Option(
            "--skip-unreadable",
            help="Leave out a graph that cannot be read, as if its annotator "
            "lacked the sentence, instead of counting it as an empty graph "
            "(agreement 0); the report then says which graphs are left out.",
        ),
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    as_csv: Annotated[
        bool, typer.Option("--csv", help="Print the per-sentence table as CSV.")
    ] = False,
) -> None:
    """Agreement among annotators: pairwise smatch, per aspect, per sentence.

    A graph that cannot be read counts as an empty graph: it agrees 0 with
    every other annotator's graph of the sentence (--skip-unreadable leaves
    it out). The report lists each such graph with its place.

    Exit status: 0; 1 some graph cannot be read; 2 usage or input errors
    (fewer than two files, a file that cannot be read, no sentence that
    two annotators share, --strict with a syntax error); 130 interrupted.
    """
    from ..workflows.iaa import agreement
    from ..workflows.umr_agreement import layer_agreement

    with guarded("iaa"):
        if len(files) < 2:
            raise fail("iaa", "give at least two annotators' files")
        if strict and skip_unreadable:
            raise fail("iaa", "--strict and --skip-unreadable exclude each other")
        (metric,) = build_metrics(
            ["smatch"], option, time_budget_options(time_budget)
        )
        assert isinstance(metric, Smatch)
        if strict:  # a quick read first: stop before comparing anything
            report_input_errors("iaa", _errors(files), strict)
        total = max(graphs_in(path) for path in files)
        with workers(jobs, cluster) as where, progress_bar(
            "iaa", total, quiet
        ) as done:
            try:
                result = agreement(
                    files,
                    metric,
                    by=by.value,
                    resamples=resamples,
                    confidence=confidence,
                    jobs=where,
                    progress=done,
                    skip_unreadable=skip_unreadable,
                )
            except ValueError as exc:
                report_input_errors("iaa", _errors(files), strict=False)
                raise fail("iaa", str(exc)) from None
            except PairingError:  # the syntax errors are told first, as always
                report_input_errors("iaa", _errors(files), strict=False)
                raise
        report_input_errors(
            "iaa",
            result.errors,
            strict=False,
            consequence="the report says how each graph concerned counts",
        )
    # UMR: the layers the sentence graphs leave out (alignment, document level)
    layers = (
        layer_agreement(files, resamples, confidence)
        if all(is_umr_path(path) for path in files)
        else None
    )
    _output(result, as_json, as_csv, top, layers, confidence, files)
    if result.unreadable:
        typer.echo(
            f"amrcheck iaa: {plural(len(result.unreadable), 'graph')} cannot be read "
            "(listed in the report); exit status 1",
            err=True,
        )
        raise typer.Exit(code=1)
