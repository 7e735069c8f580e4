"""What the two gate hooks share: their command line and how they run a gate."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Protocol

from ..errors import AmrError
from ..workflows.config import Config, load_config
from ..workflows.gates import DEFAULT_SHOW, GateFailure, render_failures

#: the epilog of both hooks' help
CONFIGURATION = (
    "Configuration: [tool.amrcheck] in pyproject.toml or "
    ".amrcheck.toml (docs/hooks.md)."
)


class Gate(Protocol):
    def check(self, path: str) -> list[GateFailure]: ...


def run_gate(
    prog: str,
    description: str,
    epilog: str,
    open_gate: Callable[[Config], AbstractContextManager[Gate]],
    argv: Sequence[str] | None,
) -> int:
    """Check every file named in ``argv`` with the gate ``open_gate`` makes
    from the configuration; print the failures. Exit status: 0 pass, 1 a
    threshold failed, 2 a configuration error or a refused file."""
    parser = argparse.ArgumentParser(prog=prog, description=description, epilog=epilog)
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
        with open_gate(load_config(args.config)) as gate:
            for name in args.filenames:
                failures += gate.check(name)
    except AmrError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    for line in render_failures(failures, args.show):
        print(line)
    return 1 if failures else 0
