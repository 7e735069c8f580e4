"""What the timing benches' command lines share."""

from __future__ import annotations

import argparse


def runs_parser(doc: str | None, runs: int) -> argparse.ArgumentParser:
    """A timing bench's command line: its docstring's first line as the
    description, and ``--runs`` (how often each measure is repeated)."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=runs)
    return parser
