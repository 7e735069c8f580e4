"""What the long-running commands share: consoles, progress, errors, metric options.

* output goes through rich consoles: colour and a progress bar on a
  terminal, plain text (no colour, no wrapping, no bar) otherwise;
* a progress bar with ETA on stderr, unless ``--quiet`` or not a TTY;
* Ctrl-C ends a command with exit status 130 and one line, no traceback;
* usage and input errors end it with exit status 2;
* metric names come from the registry; ``-o key=value`` options are
  typed by the metric's ``Options`` (``-o smatch.restarts=9`` targets one
  metric when several are chosen);
* ``--jobs N`` (local processes) or ``--cluster ADDRESS`` (Dask) says
  where long runs go (:mod:`amrcheck.execution`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Optional

import typer

from ..errors import AmrError, ClusterError, InputError, MetricError
from ..execution import Jobs
from ..metrics import (
    BUDGET_OPTIONS,
    Metric,
    get_metric,
    metric_factory,
    metric_names,
    metric_options,
    option_specs,
    resolve,
)
from ..reading.corpus import count_graph_lines

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from ..pairing.graphs import Gap, Mismatch
    from ..workflows.diff import Change, Located

# rich (its console too: ``score -q`` prints without it), its tables and
# progress bars, and the diff engine, are imported where used, so that a
# command loads only what it draws (start-up time).

#: ``--jobs N``: local worker processes
JobsOption = Annotated[int, typer.Option(help="Processes (0 = one per CPU).")]
#: ``--cluster ADDRESS``: a Dask cluster instead of local processes
ClusterOption = Annotated[
    Optional[str],  # noqa: UP007 (typer needs Optional here)
    typer.Option(
        "--cluster",
        metavar="ADDRESS",
        help="Run on Dask: local[:N] starts N local workers, tcp://HOST:PORT "
        "uses a running scheduler (instead of --jobs).",
    ),
]

TIME_BUDGET_HELP = (
    "Seconds of alignment search per pair (smatch, s2match; default 3; 0: no "
    "limit); with --exact, also the ILP's limit. A pair it stops keeps the "
    "best alignment found, is not proven optimal, and the report counts it."
)


def time_budget_options(seconds: float | None) -> dict[str, str | None]:
    """The metric options ``--time-budget SECONDS`` stands for (0: no limit)."""
    if seconds is None:
        return {}
    if seconds == 0:
        return {"time_budget": "none"}
    return {option: str(seconds) for option in BUDGET_OPTIONS}


#: ``--time-budget SECONDS``: the alignment search's limit per pair
TimeBudgetOption = Annotated[
    Optional[float],  # noqa: UP007 (typer needs Optional here)
    typer.Option("--time-budget", metavar="SECONDS", min=0.0, help=TIME_BUDGET_HELP),
]

#: metric names of the registry, as a typer choice
MetricName = Enum(  # type: ignore[misc]
    "MetricName", {name: name for name in metric_names()}, type=str
)


class PairByChoice(str, Enum):
    """How graphs of two files are paired
    (:func:`amrcheck.pairing.graphs.match_entries`)."""

    AUTO = "auto"
    ID = "id"
    POSITION = "position"


#: ``--pair-by`` (``--by``): how the graphs of the files are paired
PairByOption = Annotated[
    PairByChoice,
    typer.Option(
        "--pair-by", "--by",
        help="Pair graphs by ::id or by position (auto: by ::id when every "
        "graph of every file has a distinct one, else by position; ids that "
        "disagree by position are then an error).",
    ),
]


class RootPolicyChoice(str, Enum):
    """Where a graph's root is anchored (:mod:`amrcheck.standardize`)."""

    VARIABLE = "variable"
    CONCEPT = "concept"


class CompatChoice(str, Enum):
    """A metric's reference behaviour where its default differs (every
    metric's ``reference``; for smatch that is smatch 1.0.4), or smatch's
    triples as written (``raw``)."""

    REFERENCE = "reference"
    SMATCH_104 = "smatch-1.0.4"
    RAW = "raw"


COMPAT_HELP = (
    "reference: each metric as its reference implementation behaves, where "
    "the default differs (the default scores a graph the same however it is "
    "written; docs/metrics.md); smatch-1.0.4 (= smatch's reference) or raw: "
    "smatch's triples and counting of those tools."
)


def console(stderr: bool = False) -> Console:
    """A console on stdout (or stderr): styled on a terminal, plain otherwise."""
    from rich.console import Console

    probe = Console(stderr=stderr)
    if probe.is_terminal:
        return Console(stderr=stderr, highlight=False, soft_wrap=True)
    # plain text for pipes and files: no colour codes, no wrapping at 80
    return Console(
        stderr=stderr,
        highlight=False,
        soft_wrap=True,
        no_color=True,
        width=10_000,
        emoji=False,
    )


def table(out: Console, *columns: str, title: str | None = None) -> Table:
    """A table that is a boxed grid on a terminal and space-aligned text otherwise."""
    from rich import box
    from rich.table import Table

    grid = Table(
        *columns,
        title=title,
        box=box.SIMPLE_HEAD if out.is_terminal else None,
        pad_edge=False,
        show_edge=False,
        title_justify="left",
        header_style="bold" if out.is_terminal else "",
    )
    return grid


@contextmanager
def progress_bar(
    description: str, total: int, quiet: bool = False
) -> Iterator[Callable[[int], None] | None]:
    """Yield a ``done(n)`` callback drawing a bar on stderr, or None when silent."""
    if quiet or total <= 1:
        yield None
        return
    from rich.console import Console

    err = Console(stderr=True)
    if not err.is_terminal:
        yield None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=total)
        yield lambda done: bar.advance(task, done)


CHANGE_STYLES = {"removed": "red", "added": "green", "relabel": "yellow"}


def change_line(change: Change, files: bool = False) -> Text:
    """A diff line: ``- l:c  triple``, ``+ l:c  triple`` or ``~ l:c -> l:c  a -> b``;
    ``files``: each place ``file:l:c`` (where the two sides are two files)."""
    from rich.text import Text

    line = Text("  ")
    style = CHANGE_STYLES[change.kind]

    def at(place: Located) -> str:
        where = f"{place.line}:{place.column}"
        return f"{place.path}:{where}" if files else where

    if change.kind == "relabel":
        assert change.old is not None and change.new is not None
        line.append(f"~ {at(change.old)} -> {at(change.new)}  ", style=style)
        line.append(change.old.text, style="red")
        line.append(" -> ")
        line.append(change.new.text, style="green")
        return line
    place = change.old or change.new
    assert place is not None
    line.append(f"{change.sign} {at(place)}  {place.text}", style=style)
    return line


def graphs_in(path: Path) -> int:
    """About how many graphs a file has (lines opening with ``(``): progress bars."""
    try:
        return count_graph_lines(path)
    except InputError:
        return 0  # reading it properly will report the problem


def fail(command: str, message: str) -> typer.Exit:
    """Print ``amrcheck COMMAND: error: message`` on stderr; the exit to raise."""
    typer.echo(f"amrcheck {command}: error: {message}", err=True)
    return typer.Exit(code=2)


@contextmanager
def workers(jobs: int, cluster: str | None) -> Iterator[Jobs]:
    """What the engine runs on: ``jobs`` local processes, or the cluster opened
    for the block (a local one is stopped at its end)."""
    if cluster is None:
        yield jobs
        return
    if jobs != 1:
        raise ClusterError("give --jobs or --cluster, not both")
    from ..execution import connect

    with connect(cluster) as backend:
        yield backend


@contextmanager
def guarded(command: str) -> Iterator[None]:
    """Turn engine errors into exit 2 and Ctrl-C into exit 130, without tracebacks."""
    try:
        yield
    except KeyboardInterrupt:
        typer.echo(f"amrcheck {command}: interrupted", err=True)
        raise typer.Exit(code=130) from None
    except AmrError as exc:
        raise fail(command, str(exc)) from None
    except OSError as exc:
        name = f"{exc.filename}: " if exc.filename else ""
        raise fail(command, f"{name}{exc.strerror or exc}") from None


def report_input_errors(
    command: str,
    problems: Sequence[str],
    strict: bool,
    consequence: str = "the graphs concerned are left out",
) -> None:
    """Warn about errors in input files (``file:line:col: ...``); exit 2 if strict.

    ``consequence`` says what became of the graphs concerned.
    """
    for problem in problems:
        typer.echo(problem, err=True)
    if problems and strict:
        raise fail(command, f"{len(problems)} input error(s) and --strict")
    if problems:
        typer.echo(
            f"amrcheck {command}: warning: {len(problems)} input error(s); "
            f"{consequence} (--strict: stop instead)",
            err=True,
        )


def announce_pairing(
    command: str,
    by: Literal["id", "position"],
    note: str | None,
    mismatches: Sequence[Mismatch],
    label: str | None = None,
) -> None:
    """Say on stderr how the files were paired (by id, or by position and
    why), and warn about the pairs by position whose sentences differ;
    ``label`` names the candidate when there are several."""
    from ..pairing.graphs import how_paired, mismatch_lines

    head = f"amrcheck {command}: " + (f"{label}: " if label else "")
    typer.echo(head + how_paired(by, note), err=True)
    for line in mismatch_lines(mismatches):
        typer.echo(line if line.startswith("  ") else head + line, err=True)


def pairing_dict(
    by: Literal["id", "position"], note: str | None, mismatches: Sequence[Mismatch]
) -> dict[str, Any]:
    """How files were paired, in a JSON report."""
    from ..pairing.graphs import how_paired

    return {
        "by": by,
        "how": how_paired(by, note),
        "note": note,
        "mismatched": len(mismatches),
        "mismatches": [m.as_dict() for m in mismatches],
    }


def gap_dict(gap: Gap, skip_unreadable: bool = False) -> dict[str, Any]:
    """A gap in a JSON report: the pair, its place, why, and how it counts."""
    return {
        "id": gap.key,
        "where": gap.where,
        "why": gap.why,
        "side": gap.side,
        "counted": "empty graph"
        if gap.counts_as_empty(skip_unreadable)
        else "left out",
    }


def split_metrics(values: Sequence[str] | None, default: str = "smatch") -> list[str]:
    """Metric names from repeatable, comma-separated ``--metric`` values."""
    names = [n.strip() for v in values or [default] for n in v.split(",") if n.strip()]
    known = metric_names()
    for name in names:
        if name not in known:
            raise MetricError(
                f"unknown metric {name!r}; choose one of: {', '.join(known)}"
            )
    return list(dict.fromkeys(names))


def option_listing(name: str) -> list[str]:
    """The lines ``--list-options METRIC`` prints: each option of the
    metric with its type and default, as ``-o`` takes them.

    Raises:
        MetricError: unknown metric (the message lists the valid ones).
    """
    specs = option_specs(name)
    resolved = resolve(name)
    if not specs:
        return [f"{resolved} has no options"]
    rows = [("option", "type", "default")] + [
        (spec.name, spec.type, _shown(spec.default)) for spec in specs
    ]
    widths = [max(len(row[k]) for row in rows) for k in range(2)]
    lines = [f"{resolved}: -o [{resolved}.]option=value"]
    lines += [
        f"  {a:<{widths[0]}}  {b:<{widths[1]}}  {c}".rstrip() for a, b, c in rows
    ]
    return lines


def _shown(default: Any) -> str:
    if default is None:
        return "none"
    if isinstance(default, bool):
        return str(default).lower()
    if isinstance(default, tuple):
        return ",".join(map(str, default))
    return str(default)


def build_metrics(
    names: Sequence[str],
    option: Sequence[str] | None = None,
    shortcuts: dict[str, Any] | None = None,
) -> list[Metric]:
    """Build ``names`` with ``-o [metric.]key=value`` options and flag shortcuts.

    A shortcut (``--root``, ``--exact`` ...) goes to every chosen metric
    that has the option; it is an error if none has it. So is a plain
    ``key=value`` that no chosen metric has.
    """
    per_metric: dict[str, dict[str, str]] = {name: {} for name in names}
    wanted: dict[str, str] = {}
    for item in option or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise MetricError(f"-o/--option expects key=value, got {item!r}")
        target, dot, field = key.strip().rpartition(".")
        field = field.replace("-", "_")
        if dot:
            if target not in per_metric:
                raise MetricError(f"-o {item}: {target!r} is not a chosen metric")
            per_metric[target][field] = value.strip()
        else:
            wanted[field] = value.strip()
    for key, value in (shortcuts or {}).items():
        if value is not None:
            wanted[key] = str(value.value if isinstance(value, Enum) else value)
    for key, value in wanted.items():
        for name in _takers(names, key):
            per_metric[name].setdefault(key, value)
    return [get_metric(n, **metric_options(n, per_metric[n])) for n in names]


def _takers(names: Sequence[str], key: str) -> list[str]:
    """The metrics among ``names`` that an unqualified option ``key`` goes to.

    Raises:
        MetricError: none has it; or, for ``compat``, one of them has not
            (never silently: that metric has no reference to return to).
    """
    takers = [name for name in names if _has_option(name, key)]
    if key == "compat" and len(takers) < len(names):
        others = ", ".join(n for n in names if n not in takers)
        raise MetricError(
            f"--compat does not apply to {others}: its default is the only "
            "behaviour it has (see docs/metrics.md)"
        )
    if not takers:
        raise MetricError(
            f"option {key!r} belongs to none of the chosen metrics "
            f"({', '.join(names)})"
        )
    return takers


def _has_option(name: str, key: str) -> bool:
    options = getattr(metric_factory(name), "Options", None)
    return options is not None and key in {f.name for f in dataclasses.fields(options)}


def describe_settings(settings: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in settings.items())
