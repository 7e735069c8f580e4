"""``amrcheck check FILES...``: validate AMR files, print compiler-style findings.

Thin: read each file, call :func:`amrcheck.validate`, render. Exit status
0 when no errors, 1 when any file has an error, 2 for usage errors and
unreadable files. The text and JSON formats are documented in
``docs/check.md``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from ..corpus import read_corpus
from ..errors import InputError
from ..findings import Finding
from ..rules import check_patterns, select_findings
from ..validate import validate
from . import app

#: bumped only when the JSON output changes incompatibly
JSON_SCHEMA_VERSION = 1


class OutputFormat(str, Enum):
    TEXT = "text"
    JSON = "json"


@dataclass
class _FileResult:
    path: str
    graphs: int = 0
    findings: list[Finding] = field(default_factory=list)
    problem: str | None = None  # why the file could not be read

    @property
    def errors(self) -> int:
        return sum(f.is_error for f in self.findings)

    @property
    def warnings(self) -> int:
        return len(self.findings) - self.errors


def _patterns(values: list[str] | None, option: str) -> list[str]:
    raw = [part for value in values or () for part in value.split(",") if part]
    try:
        return check_patterns(raw)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint=option) from None


def _check_file(path: Path, select: list[str], ignore: list[str]) -> _FileResult:
    result = _FileResult(str(path))
    try:
        corpus = read_corpus(path)
    except InputError as exc:
        result.problem = str(exc)
        return result
    result.graphs = len(corpus)
    result.findings = select_findings(validate(corpus), select, ignore)
    return result


@app.command()
def check(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE",
            help="AMR files (PENMAN graphs separated by blank lines).",
        ),
    ],
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="Output format.")
    ] = OutputFormat.TEXT,
    select: Annotated[
        list[str] | None,
        typer.Option(
            "--select",
            help="Report only these codes or prefixes (E, W4, E101); "
            "repeatable or comma-separated.",
        ),
    ] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option("--ignore", help="Do not report these codes or prefixes."),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print findings only, no summary.")
    ] = False,
) -> None:
    """Check AMR files for syntax errors and rule violations (docs/rules.md)."""
    chosen = _patterns(select, "--select")
    dropped = _patterns(ignore, "--ignore")
    results = [_check_file(path, chosen, dropped) for path in files]
    for result in results:
        if result.problem is not None:
            typer.echo(f"amrcheck: cannot read {result.problem}", err=True)
    if output_format is OutputFormat.JSON:
        typer.echo(json.dumps(_json_report(results), indent=2, ensure_ascii=False))
    else:
        findings = sorted(
            (f for r in results for f in r.findings), key=Finding.sort_key
        )
        for finding in findings:
            typer.echo(str(finding))
        if not quiet:
            typer.echo(_summary(results))
    if any(r.problem is not None for r in results):
        raise typer.Exit(code=2)
    raise typer.Exit(code=1 if any(r.errors for r in results) else 0)


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _summary(results: list[_FileResult]) -> str:
    errors = sum(r.errors for r in results)
    warnings = sum(r.warnings for r in results)
    graphs = sum(r.graphs for r in results)
    unreadable = sum(r.problem is not None for r in results)
    where = f"{_plural(len(results), 'file')}, {_plural(graphs, 'graph')}"
    if unreadable:
        where += f"; {unreadable:,} unreadable"
    if not errors and not warnings and not unreadable:
        return f"No problems found ({where})."
    return (
        f"Found {_plural(errors, 'error')} and {_plural(warnings, 'warning')} "
        f"({where})."
    )


def _json_report(results: list[_FileResult]) -> dict[str, Any]:
    findings = sorted((f for r in results for f in r.findings), key=Finding.sort_key)
    return {
        "version": JSON_SCHEMA_VERSION,
        "files": [
            {
                "path": r.path,
                "readable": r.problem is None,
                "problem": r.problem,
                "graphs": r.graphs,
                "errors": r.errors,
                "warnings": r.warnings,
            }
            for r in results
        ],
        "findings": [f.to_dict() for f in findings],
        "summary": {
            "files": len(results),
            "unreadable": sum(r.problem is not None for r in results),
            "graphs": sum(r.graphs for r in results),
            "errors": sum(r.errors for r in results),
            "warnings": sum(r.warnings for r in results),
        },
    }
