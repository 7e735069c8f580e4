"""``amrcheck diff`` on UMR files: renders
:func:`amrcheck.workflows.umr_diff.diff_umr`."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from ..errors import InputError
from ..validation.filecheck import plural
from ..workflows.umr_diff import diff_umr


def umr_diff(old: Path, new: Path, as_json: bool, quiet: bool) -> int:
    """Print the changes; the exit status: 0 none, 1 some, 2 unreadable input."""
    try:
        changes = list(diff_umr(old, new))
    except InputError as exc:
        typer.echo(f"amrcheck diff: cannot read {exc}", err=True)
        return 2
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "version": 1,
                    "format": "umr",
                    "changes": [c.to_dict() for c in changes],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        for change in changes:
            typer.echo(str(change))
        if not quiet:
            sentences = len({c.sentence for c in changes})
            typer.echo(
                f"{plural(len(changes), 'change')} in {plural(sentences, 'sentence')}."
                if changes
                else "No changes."
            )
    return 1 if changes else 0
