"""``amr-regress``: fail when a file's score against its reference or HEAD drops."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import closing

from ..workflows.gates import RegressGate
from ._gate import CONFIGURATION, run_gate


def main(argv: Sequence[str] | None = None) -> int:
    return run_gate(
        "amr-regress",
        "Score each AMR file that has a reference configured "
        "([[tool.amrcheck.regress.reference]]: min-f1, max-drop against the "
        "baseline file, min-graph-f1; UMR files: min-layer-f1 per layer) or "
        "that is compared with its HEAD version "
        "([[tool.amrcheck.regress.head]]: max-changed-graphs, where a UMR "
        "sentence whose alignment or document-level triples changed counts, "
        "min-f1-vs-head); fail when a threshold is not met, listing the "
        "graphs that got worse and their triples. Exit status: 0 pass, "
        "1 a threshold failed, 2 a configuration error or a refused file "
        "(not a regular file, too large, endless).",
        f"{CONFIGURATION} Record the baseline with `amrcheck baseline`.",
        lambda config: closing(RegressGate(config)),
        argv,
    )


if __name__ == "__main__":
    raise SystemExit(main())
