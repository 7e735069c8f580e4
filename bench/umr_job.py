"""One tool's whole UMR scoring job in one fresh process (issue 31, speed).

``bench_umr_score.py``'s job measure starts this file as a fresh
interpreter, the way a user runs a tool over a corpus:

    python bench/umr_job.py {umatch,document,ancast} PAIRS OUT

PAIRS has a gold and a test path a line, a tab between; OUT receives the
JSON list of each pair's figures: umatch's counts (both files read,
``umatch``), the document level's F1s and sizes (both files read,
``score_document``), or AnCast's crash message ('' when it read the pair;
``evaluate_doc``, which reads the files). Each job imports its modules in
its own function, so that a process imports only what its job needs (the
AnCast process no amrcheck, the umatch one no document level): start-up
is part of the job. The bench's per-pair path takes its figures from the
same functions, and checks that the job's figures equal its own.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from amrcheck.workflows.umatch import UmatchReport
    from amrcheck.workflows.umr_score import DocumentScore


def umatch_figures(report: UmatchReport) -> dict[str, tuple[int, ...]]:
    """compare_umr.pl's counts of one run (with document level)."""
    p = report.projections
    return {
        "aligned token sets": (
            report.aligned_token_sets.correct,
            report.aligned_token_sets.reference,
            report.aligned_token_sets.candidate,
        ),
        "node projections": (
            p.mapped_reference,
            p.mapped_candidate,
            p.reference,
            p.candidate,
        ),
        "triples in mapped nodes": (
            report.mapped_triples.correct,
            report.mapped_triples.reference,
            report.mapped_triples.candidate,
        ),
        "juːmæʧ": (
            report.umatch.correct,
            report.umatch.reference,
            report.umatch.candidate,
        ),
    }


def document_figures(
    scores: DocumentScore,
) -> tuple[dict[str, float], dict[str, tuple[int, int]]]:
    """The document level's F1 and sizes (reference, candidate) per group."""
    f1s = {group: score.f1 for group, score in scores.groups.items()}
    sizes = {
        group: (score.reference, score.candidate)
        for group, score in scores.groups.items()
    }
    return f1s, sizes


def ancast_scores(gold: Path, test: Path) -> tuple[dict[str, Any] | None, str]:
    """AnCast's document-level scores of a pair, or None and its crash."""
    from ancast.evaluate import evaluate_doc  # type: ignore[import-untyped]

    try:
        return evaluate_doc(pred_inputs=str(test), gold_inputs=str(gold)), ""
    except Exception as exc:  # noqa: BLE001 -- a peer's crash is a result here
        return None, f"{type(exc).__name__}: {str(exc)[:80]}"


def umatch_job(pairs: Sequence[tuple[Path, Path]]) -> list[Any]:
    from amrcheck.reading.umr import read_umr
    from amrcheck.workflows.umatch import umatch

    return [
        umatch_figures(umatch(read_umr(gold), read_umr(test))) for gold, test in pairs
    ]


def document_job(pairs: Sequence[tuple[Path, Path]]) -> list[Any]:
    from amrcheck.reading.umr import read_umr
    from amrcheck.workflows.umr_score import score_document

    return [
        document_figures(score_document(read_umr(gold), read_umr(test)))
        for gold, test in pairs
    ]


def ancast_job(pairs: Sequence[tuple[Path, Path]]) -> list[Any]:
    logging.disable(logging.CRITICAL)  # AnCast logs every sentence (as per pair)
    return [ancast_scores(gold, test)[1] for gold, test in pairs]


JOBS: dict[str, Callable[[Sequence[tuple[Path, Path]]], list[Any]]] = {
    "umatch": umatch_job,
    "document": document_job,
    "ancast": ancast_job,
}


def write_pairs(pairs: Sequence[tuple[Path, Path]], listing: Path) -> None:
    """The PAIRS file of a job."""
    listing.write_text(
        "".join(f"{gold}\t{test}\n" for gold, test in pairs), encoding="utf-8"
    )


def main(argv: Sequence[str] | None = None) -> int:
    tool, listing, out = argv if argv is not None else sys.argv[1:]
    pairs = [
        (Path(gold), Path(test))
        for gold, test in (
            line.split("\t")
            for line in Path(listing).read_text(encoding="utf-8").splitlines()
        )
    ]
    Path(out).write_text(json.dumps(JOBS[tool](pairs)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
