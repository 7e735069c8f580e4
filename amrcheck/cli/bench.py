"""``amrcheck bench ...``: the benchmarks that judge metrics.

One typer sub-app: ``bamboo`` (SPEC §5 table), ``rare make`` / ``rare
[score]`` (the RARE generator and its Spearman score), ``principles``
(SPEC §4 I–IV) and ``speed`` (runtime against graph size). Each command
is thin: read → :mod:`amrcheck.benchmarks` → render (table or ``--json``,
schemas in ``docs/cli.md``; ``--plot`` charts need the ``plot`` extra).
Exit status 0, 1 when ``principles`` finds a principle that does not
hold, 2 on errors, 130 on Ctrl-C.
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from pathlib import Path
from statistics import median
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperGroup

from ..benchmarks.bamboo import (
    SUBTASK_IDS,
    BambooResult,
    BambooSubtask,
    load_bamboo,
    run_bamboo,
)
from ..benchmarks.principles import check_principles, time_pairs
from ..errors import AmrError
from ..metrics import Metric, get_metric, metric_names, resolve
from ..pairing.graphs import gap_lines, metric_settings
from ..reading.corpus import read_corpus
from ..validation.filecheck import plural
from . import app
from ._common import (
    COMPAT_HELP,
    ClusterOption,
    CompatChoice,
    JobsOption,
    RootPolicyChoice,
    TimeBudgetOption,
    build_metrics,
    console,
    describe_settings,
    fail,
    gap_dict,
    graphs_in,
    guarded,
    progress_bar,
    split_metrics,
    table,
    time_budget_options,
    workers,
)

#: bumped only when the JSON output changes incompatibly
JSON_SCHEMA_VERSION = 1

bench = typer.Typer(
    help="Benchmarks that judge metrics: BAMBOO, RARE, principles, speed.",
    no_args_is_help=True,
)
app.add_typer(bench, name="bench")

METRICS_HELP = f"Metrics, comma-separated or repeated: {', '.join(metric_names())}."
BAMBOO_METRICS_HELP = METRICS_HELP[:-1] + "; 'all': every metric (a leaderboard)."
#: column titles of the BAMBOO table, as in the published one
COLUMN = {"main": "", "reify": "(reify)", "syno": "(syno)", "role_confusion": "(role)"}


class Split(str, Enum):
    DEV = "dev"
    TEST = "test"


MetricOption = Annotated[
    Optional[list[str]],  # noqa: UP007 (typer needs Optional)
    typer.Option("--metric", "-m", help=METRICS_HELP),
]
OptionOption = Annotated[
    Optional[list[str]],  # noqa: UP007
    typer.Option("--option", "-o", help="Metric option [metric.]key=value."),
]
RootOption = Annotated[
    Optional[RootPolicyChoice],  # noqa: UP007
    typer.Option(help="smatch TOP triple: variable (smatch 1.0.4) or concept."),
]
CompatOption = Annotated[
    Optional[CompatChoice],  # noqa: UP007
    typer.Option(help=COMPAT_HELP),
]
ExactOption = Annotated[
    Optional[bool],  # noqa: UP007
    typer.Option("--exact/--no-exact", help="smatch: solve the ILP where needed."),
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]
PlotOption = Annotated[
    Optional[Path],  # noqa: UP007
    typer.Option(help="Write a chart (PNG) here; needs the 'plot' extra."),
]


def _metrics(
    metric: list[str] | None,
    option: list[str] | None,
    root: RootPolicyChoice | None = None,
    compat: CompatChoice | None = None,
    exact: bool | None = None,
    default: str = "smatch",
    time_budget: float | None = None,
) -> list[Metric]:
    shortcuts = {
        "root": root,
        "compat": compat,
        "exact": exact,
        **time_budget_options(time_budget),
    }
    return build_metrics(split_metrics(metric, default), option, shortcuts)


def _print_json(report: dict[str, Any]) -> None:
    typer.echo(json.dumps({"version": JSON_SCHEMA_VERSION, **report}, indent=2))


# --- BAMBOO -------------------------------------------------------------------


def _task_ids(values: list[str] | None) -> list[str]:
    chosen = [t.strip() for v in values or [] for t in v.split(",") if t.strip()]
    for task in chosen:
        if task not in SUBTASK_IDS:
            raise typer.BadParameter(
                f"{task!r}; choose from {', '.join(SUBTASK_IDS)}", param_hint="--task"
            )
    return [t for t in SUBTASK_IDS if t in chosen] if chosen else list(SUBTASK_IDS)


def _title(task_id: str) -> str:
    task, subtask = task_id.split(".")
    return f"{task.upper()}{COLUMN[subtask]}"


@bench.command()
def bamboo(
    data: Annotated[
        Path, typer.Option("--data", help="BAMBOO folder (<task>/<subtask>/*.amr).")
    ],
    split: Annotated[Split, typer.Option(help="Which split's files.")] = Split.DEV,
    metric: Annotated[
        Optional[list[str]],  # noqa: UP007 (typer needs Optional)
        typer.Option("--metric", "-m", help=BAMBOO_METRICS_HELP),
    ] = None,
    option: OptionOption = None,
    root: RootOption = None,
    compat: CompatOption = None,
    exact: ExactOption = None,
    time_budget: TimeBudgetOption = None,
    task: Annotated[
        Optional[list[str]],  # noqa: UP007
        typer.Option(help="Only these subtasks (e.g. sick.main); AMEAN over them."),
    ] = None,
    plot: PlotOption = None,
    with_reference: Annotated[
        bool,
        typer.Option(
            "--with-reference",
            help="Also score every metric that has one with --compat reference "
            "and show that AMEAN beside the default's (twice the time).",
        ),
    ] = False,
    jobs: JobsOption = 1,
    cluster: ClusterOption = None,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """BAMBOO: Pearson × 100 per similarity subtask, role-confusion accuracy, AMEAN.

    With several metrics (``--metric all``: every one) the table is a
    leaderboard: rows by AMEAN, the best value of each column marked.
    """
    with guarded("bench bamboo"):
        skipped: list[str] = []
        if metric == ["all"]:
            metric, skipped = _buildable(option)
        metrics = _metrics(
            metric, option, root, compat, exact, time_budget=time_budget
        )
        references = _reference_twins(metrics) if with_reference else {}
        chosen = _task_ids(task)
        subtasks = [t for t in load_bamboo(data, split.value) if t.id in chosen]
        rows = []
        runs = len(metrics) + len(references)
        total = sum(graphs_in(t.candidate_path) for t in subtasks) * runs
        with workers(jobs, cluster) as where, progress_bar(
            "bamboo", total, quiet
        ) as done:
            for scorer in metrics:
                predictions, result = run_bamboo(subtasks, scorer, where, done)
                rows.append((scorer, predictions, result))
            reference_amean = {
                name: run_bamboo(subtasks, twin, where, done)[1].amean
                for name, twin in references.items()
            }
        if len(rows) > 1:
            rows.sort(key=lambda row: -row[2].amean)
        if plot is not None:
            _bamboo_chart(plot, rows, subtasks, chosen)
    if as_json:
        _print_json(
            {
                "benchmark": "bamboo",
                "split": split.value,
                "data": str(data),
                "results": [
                    {
                        "metric": scorer.name,
                        "settings": metric_settings(scorer),
                        "tasks": result.values,
                        "amean": result.amean,
                        "cut": result.cut,
                        "unreadable": {
                            subtask_id: [gap_dict(gap) for gap in gaps]
                            for subtask_id, gaps in result.gaps.items()
                        },
                        **(
                            {"amean_reference": reference_amean[scorer.name]}
                            if scorer.name in reference_amean
                            else {}
                        ),
                    }
                    for scorer, _, result in rows
                ],
            }
        )
        return
    title = f"BAMBOO {split.value} ({data})"
    _bamboo_table(rows, chosen, title, skipped, reference_amean if references else None)
    for line in cut_lines([(scorer.name, result.cut) for scorer, _, result in rows]):
        console().print(line)
    if plot is not None:
        console().print(f"chart: {plot}")


def _reference_twins(metrics: list[Metric]) -> dict[str, Metric]:
    """Each metric that has a ``compat`` option, built again with
    ``compat="reference"`` (its reference implementation's behaviour)."""
    twins: dict[str, Metric] = {}
    for scorer in metrics:
        options = _options(scorer)
        if "compat" in options and options["compat"] is None:
            twins[scorer.name] = get_metric(
                scorer.name, **{**options, "compat": "reference"}
            )
    return twins


def _bamboo_table(
    rows: list[tuple[Metric, dict[str, list[float | None]], BambooResult]],
    chosen: list[str],
    title: str,
    skipped: list[str],
    reference_amean: dict[str, float] | None = None,
) -> None:
    out = console()
    extra = ["AMEAN ref."] if reference_amean is not None else []
    grid = table(out, "metric", *map(_title, chosen), "AMEAN", *extra, title=title)
    best = [max(column) for column in zip(*(r.row() for _, _, r in rows), strict=True)]
    for scorer, _, result in rows:
        cells = _cells(result.row(), best, len(rows) > 1)
        if reference_amean is not None:
            value = reference_amean.get(scorer.name)
            cells.append(Text("" if value is None else f"{value:.2f}"))
        grid.add_row(scorer.name, *cells)
    out.print(grid)
    if len(rows) > 1:
        out.print("* best in its column")
    if reference_amean is not None:
        out.print(
            "AMEAN ref.: with --compat reference (the reference implementation's "
            "behaviour, which depends on how a graph is written); blank where the "
            "metric has no other behaviour"
        )
    _settings_lines(out, [scorer for scorer, _, _ in rows])
    for line in skipped:
        out.print(Text(line, style="yellow"))
    _, _, first = rows[0]  # the gaps are the files', the same for every metric
    for subtask_id, gaps in first.gaps.items():
        for line in gap_lines(subtask_id, gaps):
            out.print(line)
    if len(chosen) < len(SUBTASK_IDS):
        out.print(f"AMEAN over {len(chosen)} of {len(SUBTASK_IDS)} subtasks")


def _cells(values: list[float], best: list[float], mark: bool) -> list[Text]:
    return [
        Text(f"{v:.2f}*", style="bold") if mark and v == top else Text(f"{v:.2f}")
        for v, top in zip(values, best, strict=True)
    ]


def _bamboo_chart(
    plot: Path,
    rows: list[tuple[Metric, dict[str, list[float | None]], BambooResult]],
    subtasks: list[BambooSubtask],
    chosen: list[str],
) -> None:
    """A leaderboard chart for several metrics, else one metric's scatter."""
    if len(rows) > 1:
        from ..benchmarks.plots import bamboo_leaderboard

        bamboo_leaderboard(
            plot,
            [scorer.name for scorer, _, _ in rows],
            [*map(_title, chosen), "AMEAN"],
            [result.row() for _, _, result in rows],
        )
        return
    from ..benchmarks.plots import bamboo_scatter

    scorer, predictions, result = rows[0]
    similarity = [t for t in subtasks if not t.is_role_confusion]
    # pairs that cannot be judged (None) are not drawn
    judged = {
        t.id: [
            (human, value)
            for i, human in zip(t.scored, t.human, strict=True)
            if (value := predictions[t.id][i]) is not None
        ]
        for t in similarity
    }
    bamboo_scatter(
        plot,
        scorer.name,
        {key: [human for human, _ in pairs] for key, pairs in judged.items()},
        {key: [value for _, value in pairs] for key, pairs in judged.items()},
        result.values,
    )


def _buildable(option: list[str] | None) -> tuple[list[str], list[str]]:
    """Every registered metric (aliases aside) that can be built here, and a
    line for each one that cannot (a missing extra, say)."""
    names, skipped = [], []
    for name in metric_names():
        if resolve(name) != name:
            continue
        try:
            build_metrics([name], [o for o in option or [] if o.startswith(name + ".")])
        except AmrError as exc:
            skipped.append(f"{name} left out: {exc}")
            continue
        names.append(name)
    return names, skipped


def _options(metric: Metric) -> dict[str, Any]:
    """The options ``metric`` was built with, to build it again elsewhere.

    Its ``Options`` dataclass where it has one: the settings a report
    prints describe some options (the vectors loaded, an alias) in words.
    """
    options = getattr(metric, "options", None)
    if options is not None and dataclasses.is_dataclass(options):
        return {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}
    return {k: v for k, v in metric_settings(metric).items() if k != "standardization"}


def cut_lines(cuts: list[tuple[str, int]]) -> list[str]:
    """A line per metric whose search the time budget cut on some pairs
    (``--time-budget``): their scores are the best alignment found."""
    return [
        f"{name}: {plural(cut, 'pair')} cut by the time budget (best alignment "
        "found kept, not proven optimal)"
        for name, cut in cuts
        if cut
    ]


def _settings_lines(out: Console, metrics: list[Metric]) -> None:
    for scorer in metrics:
        settings = describe_settings(metric_settings(scorer))
        out.print(Text(f"{scorer.name}: {settings}", style="dim"))


# --- RARE -----------------------------------------------------------------------


class _DefaultsToScore(TyperGroup):
    """``bench rare DIR`` means ``bench rare score DIR``."""

    # ctx is typer's own (vendored) click Context
    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["score", *args]
        return super().parse_args(ctx, args)


rare = typer.Typer(
    cls=_DefaultsToScore,
    help="RARE: rewire graphs (make), then rank metrics by Spearman × 100 (score).",
    no_args_is_help=True,
)
bench.add_typer(rare, name="rare")


@rare.command()
def make(
    corpus: Annotated[Path, typer.Argument(help="AMR file whose graphs to rewire.")],
    out: Annotated[Path, typer.Option("--out", help="Folder to write.")],
    seed: Annotated[int, typer.Option(help="Seed of the rewiring.")] = 0,
    limit: Annotated[
        Optional[int],  # noqa: UP007
        typer.Option(help="Only the first N graphs."),
    ] = None,
) -> None:
    """Write original.amr, rewired.amr and similarity.tsv (ground truth) to --out."""
    from ..benchmarks.rare import make_rare, write_rare  # numpy: not for --help

    with guarded("bench rare make"):
        source = read_corpus(corpus)
        if limit is not None:
            source.entries = source.entries[:limit]
        pairs = make_rare(source, seed)
        write_rare(pairs, out)
    graphs = len({p.source_id for p in pairs})
    typer.echo(
        f"{len(pairs)} pairs from {graphs} graphs written to {out} (seed {seed})"
    )


@rare.command("score")
def rare_score(
    folder: Annotated[Path, typer.Argument(help="A folder made by 'rare make'.")],
    metric: MetricOption = None,
    option: OptionOption = None,
    root: RootOption = None,
    compat: CompatOption = None,
    exact: ExactOption = None,
    time_budget: TimeBudgetOption = None,
    jobs: JobsOption = 1,
    cluster: ClusterOption = None,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Spearman × 100 between metric scores and the rewiring ground truth."""
    from ..benchmarks.rare import score_rare  # numpy: not for --help

    with guarded("bench rare"):
        metrics = _metrics(
            metric, option, root, compat, exact, time_budget=time_budget
        )
        total = graphs_in(folder / "rewired.amr") * len(metrics)
        with workers(jobs, cluster) as where, progress_bar(
            "rare", total, quiet
        ) as done:
            results = [(m, score_rare(folder, m, where, done)) for m in metrics]
    if as_json:
        _print_json(
            {
                "benchmark": "rare",
                "data": str(folder),
                "results": [
                    {
                        "metric": m.name,
                        "settings": metric_settings(m),
                        "pairs": r.pairs,
                        "spearman": r.spearman,
                        "cut": r.cut,
                        "unreadable": [gap_dict(gap) for gap in r.gaps],
                    }
                    for m, r in results
                ],
            }
        )
        return
    out = console()
    grid = table(out, "metric", "pairs", "Spearman ×100", title=f"RARE ({folder})")
    for m, r in results:
        grid.add_row(m.name, str(r.pairs), f"{r.spearman:.2f}")
    out.print(grid)
    _settings_lines(out, [m for m, _ in results])
    for line in cut_lines([(m.name, r.cut) for m, r in results]):
        out.print(line)
    for line in gap_lines(str(folder / "rewired.amr"), results[0][1].gaps):
        out.print(line)  # the files' gaps, the same for every metric


# --- principles and speed --------------------------------------------------------


@bench.command()
def principles(
    corpus: Annotated[Path, typer.Argument(help="AMR file whose graphs to use.")],
    metric: MetricOption = None,
    option: OptionOption = None,
    neighbours: Annotated[
        int, typer.Option(help="Graph pairs (i, i+1) checked both ways.")
    ] = 200,
    jobs: Annotated[int, typer.Option(help="Worker processes for IV.")] = 2,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Check principles I-IV (range, self-score 1, symmetry, determinism)."""
    with guarded("bench principles"):
        metrics = _metrics(metric, option)
        source = read_corpus(corpus)
        if len(source) < 2:
            raise fail("bench principles", f"{corpus} needs at least two graphs")
        checks = []
        with progress_bar("principles", len(source) * len(metrics), quiet) as done:
            for m in metrics:
                options = _options(m)
                checks.append(
                    (
                        m,
                        check_principles(
                            source, m.name, options, neighbours, jobs, progress=done
                        ),
                    )
                )
    failed = any(not c.holds for _, found in checks for c in found)
    if as_json:
        _print_json(
            {
                "benchmark": "principles",
                "corpus": str(corpus),
                "results": [
                    {
                        "metric": m.name,
                        "settings": metric_settings(m),
                        "principles": [
                            {
                                "code": c.code,
                                "name": c.name,
                                "holds": c.holds,
                                "checked": c.checked,
                                "violations": c.violations,
                                "note": c.note,
                            }
                            for c in found
                        ],
                    }
                    for m, found in checks
                ],
            }
        )
    else:
        out = console()
        for m, found in checks:
            out.print(
                Text(
                    f"{m.name} ({describe_settings(metric_settings(m))})", style="bold"
                )
            )
            for c in found:
                line = Text(f"  {c.code:<4}{c.name:<16}")
                line.append(
                    "holds" if c.holds else "does not hold",
                    style="green" if c.holds else "bold red",
                )
                line.append(
                    f"  ({c.checked} pairs)" + (f"; {c.note}" if c.note else "")
                )
                out.print(line)
                for violation in c.violations:
                    out.print(Text(f"      {violation}", style="red"))
    raise typer.Exit(code=1 if failed else 0)


@bench.command()
def speed(
    corpus: Annotated[
        Path, typer.Argument(help="AMR file; graph i is scored against i+1.")
    ],
    metric: MetricOption = None,
    option: OptionOption = None,
    plot: PlotOption = None,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Seconds per pair against graph size, in this process (--plot: a chart)."""
    with guarded("bench speed"):
        chosen = _metrics(metric, option)
        if len(chosen) != 1:
            raise fail("bench speed", "time one metric at a time")
        (m,) = chosen
        source = read_corpus(corpus)
        options = {
            k: v for k, v in metric_settings(m).items() if k != "standardization"
        }
        with progress_bar("speed", len(source), quiet) as done:
            timings = time_pairs(source, m.name, options, done)
        if not timings:
            raise fail("bench speed", f"{corpus} needs at least two graphs")
        if plot is not None:
            from ..benchmarks.plots import runtime_chart

            runtime_chart(
                plot, m.name, [t.size for t in timings], [t.seconds for t in timings]
            )
    seconds = [t.seconds for t in timings]
    slowest = max(timings, key=lambda t: t.seconds)
    report = {
        "benchmark": "speed",
        "corpus": str(corpus),
        "metric": m.name,
        "settings": metric_settings(m),
        "pairs": len(timings),
        "seconds": sum(seconds),
        "pairs_per_second": len(timings) / sum(seconds) if sum(seconds) else None,
        "median_ms": median(seconds) * 1000,
        "slowest": {
            "pair": slowest.label,
            "size": slowest.size,
            "ms": slowest.seconds * 1000,
        },
        "timings": [
            {"pair": t.label, "size": t.size, "seconds": t.seconds} for t in timings
        ],
    }
    if as_json:
        _print_json(report)
        return
    out = console()
    out.print(
        f"{m.name}: {len(timings)} pairs in {sum(seconds):.2f} s "
        f"({report['pairs_per_second']:,.0f} pairs/s, median "
        f"{report['median_ms']:.2f} ms; slowest {slowest.label}, "
        f"{slowest.size} triples, {slowest.seconds * 1000:.1f} ms)"
    )
    if plot is not None:
        out.print(f"chart: {plot}")
