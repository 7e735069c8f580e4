"""``amr-iaa``: fail when two annotators' versions of a file disagree too much."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext

from ..workflows.gates import IaaGate
from ._gate import CONFIGURATION, run_gate


def main(argv: Sequence[str] | None = None) -> int:
    return run_gate(
        "amr-iaa",
        "For each AMR file of a configured annotator group "
        "([[tool.amrcheck.iaa]], e.g. annotator1/{doc}.amr and "
        "annotator2/{doc}.amr), score it against the other annotators' "
        "versions; fail when a graph (min-graph-f1), the mean (min-mean-f1) "
        "or a UMR layer (min-layer-f1: alignment, temporal, modal, coref) "
        "is below its threshold, listing the disagreeing triples. Exit "
        "status: 0 pass, 1 a threshold failed, 2 a configuration error or a "
        "refused file (not a regular file, too large, endless).",
        CONFIGURATION,
        lambda config: nullcontext(IaaGate(config)),
        argv,
    )


if __name__ == "__main__":
    raise SystemExit(main())
