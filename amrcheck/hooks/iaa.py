"""``amr-iaa``: fail when two annotators' versions of a file disagree too much."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..errors import AmrError
from ..workflows.config import load_config
from ..workflows.gates import DEFAULT_SHOW, GateFailure, IaaGate, render_failures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="amr-iaa",
        description="For each AMR file of a configured annotator group "
        "([[tool.amrcheck.iaa]], e.g. annotator1/{doc}.amr and "
        "annotator2/{doc}.amr), score it against the other annotators' "
        "versions; fail when a graph (min-graph-f1) or the mean (min-mean-f1) "
        "is below its threshold, listing the disagreeing triples. Exit "
        "status: 0 pass, 1 a threshold failed, 2 a configuration error or a "
        "refused file (not a regular file, too large, endless).",
        epilog="Configuration: [tool.amrcheck] in pyproject.toml or "
        ".amrcheck.toml (docs/hooks.md).",
    )
    parser.add_argument("filenames", nargs="*", metavar="FILE", help="AMR files")
    parser.add_argument("--config", metavar="PATH", help="configuration file to use")
    parser.add_argument(
        "--show",
        type=int,
        default=DEFAULT_SHOW,
        metavar="N",
        help=f"list at most N graphs per failure (default {DEFAULT_SHOW}; 0: all)",
    )
    args = parser.parse_args(argv)
    failures: list[GateFailure] = []
    try:
        gate = IaaGate(load_config(args.config))
        for name in args.filenames:
            failures += gate.check(name)
    except AmrError as exc:
        print(f"amr-iaa: error: {exc}", file=sys.stderr)
        return 2
    for line in render_failures(failures, args.show):
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
