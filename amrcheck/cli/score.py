"""``amrcheck score REF CAND``: corpus P/R/F1 of any registered metric.

Thin: read both files, pair them (:mod:`amrcheck.pairing`), build the
metric from its typed options, score, render. Exit status 0 on success,
2 on bad input (unreadable files, graphs that cannot be paired, unknown
metric or option). Note the order: REF first, as on the command line of
smatch; the metric API takes ``score(candidate, reference)``.
"""

from __future__ import annotations

import csv
import json
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from ..corpus import read_corpus
from ..errors import AmrError
from ..metrics import CorpusScore, Score, get_metric, metric_names, metric_options
from ..pairing import GraphPair, pair_corpora, score_pairs
from ..parallel import parallel_map
from . import app

MetricName = Enum(  # type: ignore[misc]
    "MetricName", {name: name for name in metric_names()}, type=str
)


class RootPolicyChoice(str, Enum):
    VARIABLE = "variable"
    CONCEPT = "concept"


class CompatChoice(str, Enum):
    SMATCH_104 = "smatch-1.0.4"
    RAW = "raw"


def _fail(message: str) -> typer.Exit:
    typer.echo(f"amrcheck score: error: {message}", err=True)
    return typer.Exit(code=2)


def _collect_options(
    root: RootPolicyChoice | None,
    compat: CompatChoice | None,
    exact: bool | None,
    seed: int | None,
    restarts: int | None,
    option: list[str] | None,
) -> dict[str, str]:
    raw: dict[str, str] = {}
    for item in option or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise _fail(f"--option expects key=value, got {item!r}")
        raw[key.strip().replace("-", "_")] = value.strip()
    shortcuts = {
        "root": root.value if root else None,
        "compat": compat.value if compat else None,
        "exact": None if exact is None else str(exact),
        "seed": None if seed is None else str(seed),
        "restarts": None if restarts is None else str(restarts),
    }
    raw.update({k: v for k, v in shortcuts.items() if v is not None})
    return raw


class _Aspects:
    """Picklable per-pair aspect scorer for --jobs."""

    def __init__(self, metric: Any) -> None:
        self.metric = metric

    def __call__(self, pair: GraphPair) -> dict[str, Score]:
        from ..metrics.aspects import aspect_scores

        return aspect_scores(self.metric, pair.candidate, pair.reference)


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _write_per_pair(path: Path, pairs: list[GraphPair], result: CorpusScore) -> None:
    keys: list[str] = []
    for score in result.pairs:
        keys += [k for k in score.counts if k not in keys]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["id", "precision", "recall", "f1", *keys])
        for pair, score in zip(pairs, result.pairs, strict=True):
            counts = [score.counts.get(k, "") for k in keys]
            writer.writerow(
                [
                    pair.id,
                    repr(score.precision),
                    repr(score.recall),
                    repr(score.f1),
                    *counts,
                ]
            )


def _report(result: CorpusScore, aspects: dict[str, Score] | None) -> dict[str, Any]:
    micro = result.micro
    report: dict[str, Any] = {
        "metric": result.metric,
        "settings": result.settings,
        "pairs": result.n_pairs,
        "micro": {
            "precision": micro.precision,
            "recall": micro.recall,
            "f1": micro.f1,
            "counts": micro.counts,
            **micro.info,
        },
        "macro": {
            "precision": result.macro_precision,
            "recall": result.macro_recall,
            "f1": result.macro_f1,
        },
    }
    if aspects is not None:
        report["aspects"] = {
            name: {
                "precision": s.precision,
                "recall": s.recall,
                "f1": s.f1,
                "counts": s.counts,
            }
            for name, s in aspects.items()
        }
    return report


def _render(report: dict[str, Any]) -> None:
    settings = ", ".join(f"{k}={v}" for k, v in report["settings"].items())
    micro, macro = report["micro"], report["macro"]
    typer.echo(f"metric:    {report['metric']} ({settings})")
    typer.echo(f"pairs:     {report['pairs']}")
    typer.echo(
        f"micro:     P {_fmt(micro['precision'])}  R {_fmt(micro['recall'])}"
        f"  F1 {_fmt(micro['f1'])}"
    )
    typer.echo(
        f"macro:     P {_fmt(macro['precision'])}  R {_fmt(macro['recall'])}"
        f"  F1 {_fmt(macro['f1'])}"
    )
    counts = micro["counts"]
    if "optimal" in counts:
        typer.echo(
            f"optimal:   {int(counts['optimal'])}/{report['pairs']} pairs proven"
            f" optimal (corpus F1 upper bound {_fmt(micro.get('f1_upper_bound'))})"
        )
    for name, aspect in report.get("aspects", {}).items():
        typer.echo(
            f"  {name:<15} P {_fmt(aspect['precision'])}  R {_fmt(aspect['recall'])}"
            f"  F1 {_fmt(aspect['f1'])}"
        )


@app.command()
def score(
    reference: Annotated[Path, typer.Argument(help="Reference (gold) AMR file.")],
    candidate: Annotated[Path, typer.Argument(help="Candidate (system) AMR file.")],
    metric: Annotated[
        MetricName, typer.Option("--metric", "-m", help="Metric to score with.")
    ] = MetricName["smatch"],  # noqa: B008
    root: Annotated[
        Optional[RootPolicyChoice],  # noqa: UP007 (typer needs Optional here)
        typer.Option(help="TOP triple: smatch 1.0.4's (variable) or the root concept."),
    ] = None,
    compat: Annotated[
        Optional[CompatChoice],  # noqa: UP007
        typer.Option(help="Reproduce another tool's triples and counting."),
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
    option: Annotated[
        Optional[list[str]],  # noqa: UP007
        typer.Option("--option", "-o", help="Metric option key=value (repeatable)."),
    ] = None,
    jobs: Annotated[int, typer.Option(help="Processes to use (0 = one per CPU).")] = 1,
    per_pair: Annotated[
        Optional[Path],  # noqa: UP007
        typer.Option("--per-pair", help="Write one TSV row per pair to this file."),
    ] = None,
    aspects: Annotated[
        bool, typer.Option("--aspects", help="Also print fine-grained smatch scores.")
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print the F1 only.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a JSON report.")
    ] = False,
) -> None:
    """Score CAND against REF, graph by graph in file order."""
    name = metric.value
    raw = _collect_options(root, compat, exact, seed, restarts, option)
    try:
        scorer = get_metric(name, **metric_options(name, raw))
        if aspects and name != "smatch":
            raise _fail("--aspects needs --metric smatch")
        pairs = pair_corpora(read_corpus(reference), read_corpus(candidate))
        result = score_pairs(scorer, pairs, jobs=jobs)
        aspect_totals = None
        if aspects:
            from ..metrics.aspects import aggregate_aspects

            aspect_totals = aggregate_aspects(
                parallel_map(_Aspects(scorer), pairs, jobs)
            )
    except AmrError as exc:
        raise _fail(str(exc)) from None
    if per_pair is not None:
        try:
            _write_per_pair(per_pair, pairs, result)
        except OSError as exc:
            raise _fail(f"cannot write {per_pair}: {exc.strerror}") from None
    report = _report(result, aspect_totals)
    if as_json:
        typer.echo(json.dumps(report, indent=2, default=str))
    elif quiet:
        typer.echo(_fmt(result.micro.f1))
    else:
        _render(report)
