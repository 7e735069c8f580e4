"""``amrcheck check FILES...``: validate AMR files, print compiler-style findings.

Thin: read each file, call :func:`amrcheck.validation.validate`, render. Exit status
0 when no errors, 1 when any file has an error, 2 for usage errors and
unreadable files. The text and JSON formats are documented in
``docs/check.md``.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import ConfigError
from ..reading.umr import is_umr_path
from ..validation.filecheck import (
    FileResult,
    check_file,
    finding_lines,
    ordered_findings,
    summary,
)
from ..validation.rules import check_patterns
from ..validation.umr import UmrOptions
from . import app

#: bumped only when the JSON output changes incompatibly
JSON_SCHEMA_VERSION = 1


class OutputFormat(str, Enum):
    TEXT = "text"
    JSON = "json"


def _patterns(values: list[str] | None, option: str) -> list[str]:
    raw = [part for value in values or () for part in value.split(",") if part]
    try:
        return check_patterns(raw)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint=option) from None


@app.command()
def check(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE",
            help="AMR files (PENMAN graphs separated by blank lines) or UMR "
            "files (.umr, docs/umr.md).",
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
    umr_options: Annotated[
        list[str] | None,
        typer.Option(
            "--umr",
            help="UMR relaxations, e.g. optional-document-level, "
            "optional-alignments, no-check-wiki (docs/umr.md); repeatable or "
            "comma-separated; added to [umr] of .amrcheck.toml.",
        ),
    ] = None,
) -> None:
    """Check AMR and UMR files for syntax errors and rule violations (docs/rules.md)."""
    chosen = _patterns(select, "--select")
    dropped = _patterns(ignore, "--ignore")
    umr = _umr_options(umr_options, any(is_umr_path(path) for path in files))
    # text for files named in path order (as a shell glob names them) is
    # printed file by file, in the order of ordered_findings: a UMR release
    # has hundreds of thousands of findings, not worth holding
    names = [str(path) for path in files]
    streaming = output_format is OutputFormat.TEXT and names == sorted(names)
    results = []
    for path in files:
        result = check_file(path, chosen, dropped, umr)
        if streaming and result.findings:
            # one write per file
            typer.echo("\n".join(finding_lines(result.take_findings())))
        results.append(result)
    for result in results:
        if result.problem is not None:
            typer.echo(f"amrcheck: cannot read {result.problem}", err=True)
    if output_format is OutputFormat.JSON:
        typer.echo(json.dumps(_json_report(results), indent=2, ensure_ascii=False))
    else:
        lines = finding_lines(ordered_findings(results))
        if lines:  # one write
            typer.echo("\n".join(lines))
        if not quiet:
            typer.echo(summary(results))
    if any(r.problem is not None for r in results):
        raise typer.Exit(code=2)
    raise typer.Exit(code=1 if any(r.errors for r in results) else 0)


def _umr_options(values: list[str] | None, umr_files: bool) -> UmrOptions:
    """``--umr`` on the ``[umr]`` options of the configuration (read only
    when there are UMR files: AMR checks never depended on it)."""
    from ..workflows.config import load_config  # loads numpy: UMR files only

    try:
        base = load_config().umr if umr_files else UmrOptions()
    except ConfigError as exc:
        typer.echo(f"amrcheck check: {exc}", err=True)
        raise typer.Exit(code=2) from None
    try:
        return base.relaxed(p for v in values or () for p in v.split(",") if p)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--umr") from None


def _json_report(results: list[FileResult]) -> dict[str, Any]:
    findings = ordered_findings(results)
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
