"""``amrcheck score REF CAND [CAND2 ...]``: corpus scores of any registered metrics.

Thin: :func:`amrcheck.workflows.evaluate.evaluate` on the files (streamed: memory
does not grow with their graphs), then render (a table, ``--quiet`` F1s,
or ``--json``; schema in ``docs/cli.md``). Graphs are paired by ``::id``
(else by position); a candidate graph the reference lacks, or files of
different lengths by position, are an error listing every such graph.
A candidate graph that cannot be read, or is missing, counts as an empty
graph (the engine's rule; ``--skip-unreadable`` leaves it out instead),
and a reference graph that cannot be read leaves its pair out: the
report lists each. Note the order: REF first, as on the command line of
smatch; the metric API takes ``score(candidate, reference)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..errors import MetricError
from ..metrics import Score, ScoreColumns, count_keys, metric_names
from ..pairing.graphs import gap_report
from ..workflows.evaluate import Evaluation, MetricResult, evaluate
from . import app
from ._common import (
    COMPAT_HELP,
    ClusterOption,
    CompatChoice,
    JobsOption,
    PairByChoice,
    PairByOption,
    RootPolicyChoice,
    TimeBudgetOption,
    announce_pairing,
    build_metrics,
    console,
    describe_settings,
    fail,
    gap_dict,
    graphs_in,
    guarded,
    option_listing,
    pairing_dict,
    progress_bar,
    report_input_errors,
    split_metrics,
    table,
    time_budget_options,
    workers,
)
from ._umr_score import (
    UmrFigures,
    render_umatch,
    umatch_json,
    umr_figures,
    umr_named_amr,
)

if TYPE_CHECKING:
    from rich.console import Console


class ScoreCompat(str, Enum):
    """``--compat`` of ``score``: every metric's, plus ``damonte`` (the
    aspects by Damonte et al.'s definitions)."""

    REFERENCE = CompatChoice.REFERENCE.value
    SMATCH_104 = CompatChoice.SMATCH_104.value
    RAW = CompatChoice.RAW.value
    DAMONTE = "damonte"


DAMONTE_HELP = (
    "; damonte (with --aspects): the aspects as Damonte et al.'s scripts "
    "define them, smatch as smatch 1.0.4 with --root concept (docs/cli.md)."
)




#: bumped only when the JSON output changes incompatibly
JSON_SCHEMA_VERSION = 1

SKIP_UNREADABLE_HELP = (
    "Leave out the pairs whose candidate graph cannot be read or is missing "
    "(by ::id) instead of counting it as an empty graph (F1 0); the report "
    "then says which graphs the scores leave out."
)


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _score_dict(score: Score) -> dict[str, Any]:
    return {
        "precision": score.precision,
        "recall": score.recall,
        "f1": score.f1,
        "counts": score.counts,
    }


def _result_dict(result: MetricResult, evaluation: Evaluation) -> dict[str, Any]:
    corpus = result.corpus
    report: dict[str, Any] = {
        "candidate": result.candidate,
        "metric": result.metric,
        "settings": corpus.settings,
        "pairs": corpus.n_pairs,
        "counted_empty": len(evaluation.counted_empty.get(result.candidate, [])),
        "mismatched": len(evaluation.pairings[result.candidate].mismatches),
        "left_out": len(evaluation.left_out.get(result.candidate, [])),
        "micro": {**_score_dict(corpus.micro), **corpus.micro.info},
        "macro": {
            "precision": corpus.macro_precision,
            "recall": corpus.macro_recall,
            "f1": corpus.macro_f1,
        },
    }
    if result.ci is not None:
        ci = result.ci
        report["ci"] = {
            "low": ci.low,
            "high": ci.high,
            "confidence": ci.confidence,
            "resamples": ci.resamples,
            "seed": ci.seed,
        }
    if result.aspects is not None:
        report["aspects"] = {k: _score_dict(s) for k, s in result.aspects.items()}
    return report


def json_report(evaluation: Evaluation) -> dict[str, Any]:
    pairings = list(evaluation.pairings.values())
    return {
        "version": JSON_SCHEMA_VERSION,
        "reference": evaluation.reference,
        "candidates": list(evaluation.pairings),
        "paired_by": pairings[0].by,
        "note": pairings[0].note,
        "pairing": {
            path: pairing_dict(p.by, p.note, p.mismatches)
            for path, p in evaluation.pairings.items()
        },
        "skip_unreadable": evaluation.skip_unreadable,
        "results": [_result_dict(r, evaluation) for r in evaluation.results],
        "comparisons": [
            {
                "metric": c.metric,
                "a": c.a,
                "b": c.b,
                "pairs": c.pairs,
                "f1_a": c.test.f1_a,
                "f1_b": c.test.f1_b,
                "delta": c.test.delta,
                "low": c.test.low,
                "high": c.test.high,
                "p_value": c.test.p_value,
                "confidence": c.test.confidence,
                "resamples": c.test.resamples,
            }
            for c in evaluation.comparisons
        ],
        "counted_empty": {
            path: [gap_dict(g, evaluation.skip_unreadable) for g in gaps]
            for path, gaps in evaluation.counted_empty.items()
        },
        "left_out": {
            path: [gap_dict(g, evaluation.skip_unreadable) for g in gaps]
            for path, gaps in evaluation.left_out.items()
        },
        "skipped": evaluation.skipped,
        "errors": evaluation.errors,
    }


def write_per_pair(path: Path, evaluation: Evaluation) -> None:
    """One row per (candidate file, metric, pair): TSV, or JSON lines for ``.jsonl``.

    ``file`` is the candidate file (``candidate`` is a count of smatch);
    ``graph`` is ``read``, or ``unreadable`` / ``absent`` for a candidate
    graph counted as an empty graph.
    """
    # every count's name, in the order they first come
    keys = list(
        dict.fromkeys(
            chain.from_iterable(
                count_keys(result.corpus.pair_scores())
                for result in evaluation.results
            )
        )
    )
    empty = {
        path: {gap.key: "absent" if gap.absent else "unreadable" for gap in gaps}
        for path, gaps in evaluation.counted_empty.items()
    }
    columns = ["file", "metric", "id", "precision", "recall", "f1", "graph", *keys]
    with path.open("w", newline="", encoding="utf-8") as handle:
        if path.suffix == ".jsonl":
            import json  # here only, as below: a plain score prints none

            for values in _per_pair_values(evaluation, keys, empty):
                row = dict(zip(columns, values, strict=True))
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            return
        import csv  # here only: a score without --per-pair writes no rows

        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(columns)
        # the csv module writes a float as its repr (every digit) and None
        # as nothing: the rows go as they are
        writer.writerows(_per_pair_values(evaluation, keys, empty))


def _per_pair_values(
    evaluation: Evaluation, keys: list[str], empty: dict[str, dict[str, str]]
) -> Iterator[list[Any]]:
    """Each pair's row of :func:`write_per_pair`, in its columns' order."""
    for result in evaluation.results:
        graphs = empty.get(result.candidate, {})
        candidate, metric = result.candidate, result.metric
        scores = result.corpus.pair_scores()
        rows = (
            scores.rows(keys)
            if isinstance(scores, ScoreColumns)
            else (
                (s.precision, s.recall, s.f1, *map(s.counts.get, keys))
                for s in scores
            )
        )
        for pair_id, (precision, recall, f1, *counts) in zip(
            result.ids, rows, strict=True
        ):
            yield [
                candidate,
                metric,
                pair_id,
                precision,
                recall,
                f1,
                graphs.get(pair_id, "read"),
                *counts,
            ]


def _scores(out: Console, evaluation: Evaluation) -> None:
    results = evaluation.results
    first_ci = results[0].ci if results else None
    several = len(evaluation.pairings) > 1
    columns = ["candidate"] if several else []
    columns += ["metric", "pairs", "P", "R", "F1", "macro F1"]
    columns += [f"{first_ci.confidence:.0%} CI"] if first_ci else []
    grid = table(out, *columns, title=f"reference: {evaluation.reference}")
    for r in results:
        micro = r.corpus.micro
        cells = [r.candidate] if several else []
        cells += [
            r.metric,
            str(r.corpus.n_pairs),
            _fmt(micro.precision),
            _fmt(micro.recall),
            _fmt(micro.f1),
            _fmt(r.corpus.macro_f1),
        ]
        if first_ci:
            cells.append("-" if r.ci is None else f"{r.ci.low:.4f}–{r.ci.high:.4f}")
        grid.add_row(*cells)
    out.print(grid)
    described = dict.fromkeys(
        (r.metric, describe_settings(r.corpus.settings)) for r in results
    )
    for name, settings in described:
        out.print(f"{name}: {settings}" if settings else name)
    # here, not at the top: a run of rematch alone never loads smatch's
    # modules (standardize, penman's model, the search)
    from ..metrics.smatch import search_note

    for r in results:
        note = search_note(r.corpus.micro.counts, r.corpus.n_pairs)
        if note is not None:
            out.print(
                f"{r.candidate if several else r.metric}: {note} (corpus F1 upper "
                f"bound {_fmt(r.corpus.micro.info.get('f1_upper_bound'))})"
            )


def _comparisons(out: Console, evaluation: Evaluation) -> None:
    first = evaluation.comparisons[0]
    grid = table(
        out,
        "metric",
        "pairs",
        "F1 A",
        "F1 B",
        "A − B",
        f"{first.test.confidence:.0%} CI",
        "p",
        title=f"A = {first.a}, B = {first.b} (paired bootstrap, "
        "approximate randomisation)",
    )
    for c in evaluation.comparisons:
        t = c.test
        grid.add_row(
            c.metric,
            str(c.pairs),
            _fmt(t.f1_a),
            _fmt(t.f1_b),
            f"{t.delta:+.4f}",
            f"{t.low:+.4f}–{t.high:+.4f}",
            f"{t.p_value:.4f}",
        )
    out.print(grid)


def gaps(evaluation: Evaluation) -> list[str]:
    """The report's lines on the graphs that could not be scored as written."""
    counted, left_out = evaluation.counted_empty, evaluation.left_out
    return [
        line
        for path in evaluation.pairings
        for line in gap_report(path, counted.get(path, []), left_out.get(path, []))
    ]


def render(
    out: Console, evaluation: Evaluation, aspect_definitions: str = "amrcheck"
) -> None:
    _scores(out, evaluation)
    for line in gaps(evaluation):
        out.print(line)
    for path, pairing in evaluation.pairings.items():
        if pairing.mismatches:
            # here only: the file checker loads UMR validation (~8 ms)
            from ..validation.filecheck import plural

            out.print(
                f"{path}: {plural(len(pairing.mismatches), 'pair')} paired by "
                "position with different sentences or ids (listed on stderr)"
            )
    for r in evaluation.results:
        if r.aspects is not None:
            title = f"aspects: {r.candidate}" + (
                " (Damonte et al.'s definitions)"
                if aspect_definitions == "damonte"
                else ""
            )
            grid = table(out, "aspect", "P", "R", "F1", title=title)
            for name, s in r.aspects.items():
                grid.add_row(name, _fmt(s.precision), _fmt(s.recall), _fmt(s.f1))
            out.print(grid)
    if evaluation.comparisons:
        _comparisons(out, evaluation)


def _list_options(name: str | None) -> None:
    if name is None:
        return
    try:
        lines = option_listing(name)
    except MetricError as exc:
        typer.echo(f"amrcheck score: error: {exc}", err=True)
        raise typer.Exit(code=2) from None
    typer.echo("\n".join(lines))
    raise typer.Exit()


@app.command()
def score(
    reference: Annotated[Path, typer.Argument(help="Reference (gold) AMR file.")],
    candidates: Annotated[
        list[Path],
        typer.Argument(metavar="CAND...", help="Candidate (system) AMR files."),
    ],
    metric: Annotated[
        Optional[list[str]],  # noqa: UP007 (typer needs Optional here)
        typer.Option(
            "--metric",
            "-m",
            help=f"Metrics, comma-separated or repeated: {', '.join(metric_names())}.",
        ),
    ] = None,
    root: Annotated[
        Optional[RootPolicyChoice],  # noqa: UP007
        typer.Option(help="TOP triple: smatch 1.0.4's (variable) or the root concept."),
    ] = None,
    compat: Annotated[
        Optional[ScoreCompat],  # noqa: UP007
        typer.Option(help=COMPAT_HELP + DAMONTE_HELP),
    ] = None,
    exact: Annotated[
        Optional[bool],  # noqa: UP007
        typer.Option(
            "--exact/--no-exact", help="Solve the alignment ILP where needed."
        ),
    ] = None,
    seed: Annotated[Optional[int], typer.Option(help="Seed of the search.")] = None,  # noqa: UP007
    restarts: Annotated[
        Optional[int], typer.Option(help="Random restarts after the smart start.")  # noqa: UP007
    ] = None,
    time_budget: TimeBudgetOption = None,
    vectors: Annotated[
        Optional[Path],  # noqa: UP007
        typer.Option(
            help="Word vectors of the graded metrics: glove-6b-50d (default), "
            "minilm (the packaged MiniLM encoder, distilled), or a GloVe/word2vec "
            "text file."
        ),
    ] = None,
    option: Annotated[
        Optional[list[str]],  # noqa: UP007
        typer.Option(
            "--option", "-o",
            help="Metric option [metric.]key=value (repeatable); the value is "
            "parsed to the option's type (e.g. -o weights=0.34,0.33,0.33): "
            "see --list-options METRIC.",
        ),
    ] = None,
    list_options: Annotated[
        Optional[str],  # noqa: UP007
        typer.Option(
            "--list-options", metavar="METRIC", is_eager=True,
            callback=_list_options,
            help="List the options of METRIC (type, default) and exit.",
        ),
    ] = None,
    per_pair: Annotated[
        Optional[Path],  # noqa: UP007
        typer.Option(
            "--per-pair", help="Write one row per pair: .tsv, or .jsonl for JSON lines."
        ),
    ] = None,
    ci: Annotated[
        bool, typer.Option("--ci", help="Bootstrap confidence intervals.")
    ] = False,
    resamples: Annotated[
        int, typer.Option(help="Bootstrap resamples (--ci, --compare).")
    ] = 1000,
    confidence: Annotated[float, typer.Option(help="Interval confidence.")] = 0.95,
    compare: Annotated[
        bool,
        typer.Option("--compare", help="Paired significance test of two candidates."),
    ] = False,
    aspects: Annotated[
        bool, typer.Option("--aspects", help="Fine-grained smatch scores.")
    ] = False,
    by: PairByOption = PairByChoice.AUTO,
    jobs: JobsOption = 1,
    cluster: ClusterOption = None,
    strict: Annotated[
        bool,
        typer.Option(
            help="Stop (exit 2) on syntax errors and missing graphs instead of "
            "scoring on."
        ),
    ] = False,
    skip_unreadable: Annotated[
        bool, typer.Option("--skip-unreadable", help=SKIP_UNREADABLE_HELP)
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print the F1s only, no progress.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a JSON report.")
    ] = False,
    only: Annotated[
        Optional[str],  # noqa: UP007
        typer.Option(
            "--only",
            help="umatch (UMR): count only these relations, comma-separated "
            "('concept' too), as compare_umr.pl's --only.",
        ),
    ] = None,
    exclude: Annotated[
        Optional[str],  # noqa: UP007
        typer.Option(
            "--except",
            help="umatch (UMR): leave out these relations, comma-separated, as "
            "compare_umr.pl's --except.",
        ),
    ] = None,
    html: Annotated[
        Optional[Path],  # noqa: UP007
        typer.Option(
            "--html", metavar="REPORT.html",
            help="Also write a self-contained HTML report: a table to sort and "
            "filter, each pair that differs drawn with the first metric's "
            "explanation (needs Graphviz).",
        ),
    ] = None,
    draw_all: Annotated[
        bool,
        typer.Option(
            "--draw-all",
            help="In the --html report, draw the identical pairs too (by "
            "default they are rows of the table only).",
        ),
    ] = False,
) -> None:
    """Score each CAND against REF, graph by graph (paired by ::id or position).

    A candidate graph that cannot be read, or that is missing (by ::id),
    counts as an empty graph: F1 0, its reference triples all missing
    (--skip-unreadable leaves it out). A pair whose reference graph cannot
    be read is left out. The report lists each such graph with its place.

    Exit status: 0 every graph scored; 1 some graph counted as empty or
    left out; 2 usage or input errors (unreadable or unpairable files,
    --strict with a syntax error) or a candidate none of whose pairs
    could be scored; 130 interrupted.
    """
    with guarded("score"):
        if strict and skip_unreadable:
            raise fail("score", "--strict and --skip-unreadable exclude each other")
        metric, umr = umr_figures(reference, candidates, metric, only, exclude)
        if umr.umatch_only and umr.umatch is not None:
            _refuse_graph_options(
                {"--per-pair": per_pair, "--html": html, "--ci": ci,
                 "--compare": compare, "--aspects": aspects}
            )
            raise typer.Exit(code=_umatch_only(umr.umatch, as_json, quiet))
        names = split_metrics(metric)
        damonte = compat is ScoreCompat.DAMONTE
        if damonte and not aspects:
            raise fail("score", "--compat damonte is the aspects' definitions: "
                       "give --aspects too")
        shortcuts = {
            # Damonte et al.'s smatch (an early smatch) puts the root's
            # concept in the TOP triple, as root=concept does
            "root": "concept" if damonte and root is None else root,
            "compat": CompatChoice.SMATCH_104 if damonte else compat,
            "exact": exact,
            "seed": seed,
            "restarts": restarts,
            "vectors": vectors,
            **time_budget_options(time_budget),
        }
        metrics = build_metrics(names, option, shortcuts)
        if aspects and "smatch" not in names:
            raise fail("score", "--aspects needs smatch among the metrics")
        # the bars' length (a pass over the reference): none with --quiet
        total = 0 if quiet else graphs_in(reference) * len(candidates)
        with workers(jobs, cluster) as where, progress_bar(
            "score", total, quiet
        ) as done:
            evaluation = evaluate(
                reference,
                candidates,
                metrics,
                by=by.value,
                strict=strict,
                skip_unreadable=skip_unreadable,
                ci=ci,
                compare=compare,
                aspects="damonte" if damonte else aspects,
                resamples=resamples,
                confidence=confidence,
                jobs=where,
                progress=done,
            )
        report_input_errors(
            "score",
            evaluation.errors,
            strict=False,
            consequence="the report says how each graph concerned counts",
        )
        umr.add_layers(reference, candidates)  # UMR: the document-level layers
        if per_pair is not None:
            write_per_pair(per_pair, evaluation)
        if html is not None:
            from ..render import read_with_words, score_report

            # UMR files: each sentence's words and alignments drawn too
            ref_corpus, ref_words = read_with_words(reference)
            read = [read_with_words(c) for c in candidates]
            words = {ref_corpus.path: ref_words, **{c.path: w for c, w in read}}
            with progress_bar("report", total, quiet) as done:
                page = score_report(
                    evaluation, ref_corpus, [c for c, _ in read], metrics,
                    by.value, jobs, done, draw_all=draw_all, words=words,
                    notes=umr.facts(),
                )
            html.write_text(page, encoding="utf-8")
    if not as_json:
        announce(evaluation)
    show(evaluation, umr, as_json, quiet, "damonte" if damonte else "amrcheck")
    raise typer.Exit(code=exit_status(evaluation))


def show(
    evaluation: Evaluation,
    umr: UmrFigures,
    as_json: bool,
    quiet: bool,
    aspect_definitions: str,
) -> None:
    """Print the report: JSON, the F1s only (``quiet``), or the tables."""
    if as_json:
        import json

        report = json_report(evaluation)
        for result in report["results"]:
            if "aspects" in result:
                result["aspect_definitions"] = aspect_definitions
        data = {**report, **umr.json()}
        typer.echo(json.dumps(data, indent=2, default=str, ensure_ascii=False))
    elif quiet:
        for r in evaluation.results:
            several = len(evaluation.results) > 1
            label = f"{r.candidate}\t{r.metric}\t" if several else ""
            typer.echo(f"{label}{_fmt(r.corpus.micro.f1)}")
        for line in gaps(evaluation):  # no report: the places go to stderr
            typer.echo(line, err=True)
    else:
        render(console(), evaluation, aspect_definitions)
        umr.render(console())


def announce(evaluation: Evaluation) -> None:
    """Say on stderr how each candidate was paired, with its warnings."""
    several = len(evaluation.pairings) > 1
    for path, pairing in evaluation.pairings.items():
        label = path if several else None
        announce_pairing("score", pairing.by, pairing.note, pairing.mismatches, label)


def _refuse_graph_options(given: dict[str, object]) -> None:
    """``-m umatch`` alone scores no sentence graph: the options whose output
    is made of graph scores are an error, not silently dropped."""
    named = [name for name, value in given.items() if value]
    if named:
        raise fail(
            "score", f"{', '.join(named)}: -m umatch alone scores no sentence "
            "graph; add a graph metric (-m umatch,smatch) for "
            f"{'them' if len(named) > 1 else 'it'}"
        )


def _umatch_only(figures: dict[str, Any], as_json: bool, quiet: bool) -> int:
    """``--metric umatch`` alone: no search, the alignment-based figures only;
    1 when a reference sentence has no candidate."""
    if as_json:
        import json

        data = {"version": JSON_SCHEMA_VERSION, "umatch": umatch_json(figures)}
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
    elif quiet:
        for path, (full, _) in figures.items():
            label = f"{path}\t" if len(figures) > 1 else ""
            typer.echo(f"{label}{_fmt(full.umatch.f1)}")
    else:
        render_umatch(console(), figures)
    return 1 if any(full.unpaired for full, _ in figures.values()) else 0


def exit_status(evaluation: Evaluation) -> int:
    """2 when a candidate has no pair scored, 1 when graphs were counted as
    empty or left out, else 0."""
    unscored = [r.candidate for r in evaluation.results if not r.corpus.n_pairs]
    if unscored:
        typer.echo(
            f"amrcheck score: error: nothing could be scored in {unscored[0]}", err=True
        )
        return 2
    counted = sum(len(gaps) for gaps in evaluation.counted_empty.values())
    left_out = sum(len(gaps) for gaps in evaluation.left_out.values())
    if not counted and not left_out:
        return 0
    from ..validation.filecheck import plural

    typer.echo(
        f"amrcheck score: {plural(counted, 'graph')} counted as empty, "
        f"{plural(left_out, 'pair')} left out (listed in the report); exit status 1",
        err=True,
    )
    files = dict.fromkeys([evaluation.reference, *evaluation.pairings])  # each once
    for path in umr_named_amr(files):
        typer.echo(
            f"amrcheck score: {path} holds UMR blocks but is named .amr, so it "
            "was read as AMR; name it .umr to score it as UMR (docs/umr.md)",
            err=True,
        )
    return 1
