"""``amr-regress``: fail when a file's score against its reference or HEAD drops."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..errors import AmrError
from ..workflows.config import load_config
from ..workflows.gates import DEFAULT_SHOW, GateFailure, RegressGate, render_failures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="amr-regress",
        description="Score each AMR file that has a reference configured "
        "([[tool.amrcheck.regress.reference]]: min-f1, max-drop against the "
        "baseline file, min-graph-f1) or that is compared with its HEAD "
        "version ([[tool.amrcheck.regress.head]]: max-changed-graphs, "
        "min-f1-vs-head); fail when a threshold is not met, listing the "
        "graphs that got worse and their triples. Exit status: 0 pass, "
        "1 a threshold failed, 2 a configuration error or a refused file "
        "(not a regular file, too large, endless).",
        epilog="Configuration: [tool.amrcheck] in pyproject.toml or "
        ".amrcheck.toml (docs/hooks.md). Record the baseline with "
        "`amrcheck baseline`.",
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
        with RegressGate(load_config(args.config)) as gate:
            for name in args.filenames:
                failures += gate.check(name)
    except AmrError as exc:
        print(f"amr-regress: error: {exc}", file=sys.stderr)
        return 2
    for line in render_failures(failures, args.show):
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
