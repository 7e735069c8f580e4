"""``amrcheck diff`` on UMR files: renders
:func:`amrcheck.workflows.umr_diff.diff_umr`, and (``--html``) the sentence
graphs of both versions drawn by :func:`amrcheck.render.diff_report`."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from ..errors import InputError
from ..metrics import Metric
from ..validation.filecheck import plural
from ..workflows.diff import diff_corpora
from ..workflows.umr_diff import diff_umr
from ._common import progress_bar


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


def umr_diff_report(
    old: Path, new: Path, metric: Metric, html: Path, jobs: int, quiet: bool
) -> None:
    """``--html``: the sentence graphs drawn old beside new, with their words
    and alignments, each sentence's changes in its other layers listed."""
    from ..render import diff_report, read_with_words

    before, old_words = read_with_words(old)
    after, new_words = read_with_words(new)
    layers: dict[str, list[str]] = {}
    for change in diff_umr(old, new):
        if change.layer != "graph":
            layers.setdefault(change.sentence, []).append(str(change))
    result = diff_corpora(before, after, metric, by="id")
    with progress_bar("report", len(result.graphs), quiet) as done:
        page = diff_report(
            result, before, after, metric, jobs, done,
            words={before.path: old_words, after.path: new_words}, layers=layers,
        )
    html.write_text(page, encoding="utf-8")
