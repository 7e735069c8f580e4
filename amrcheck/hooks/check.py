"""``amr-check``: validate AMR files; fail on errors."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ..errors import ConfigError
from ..validation.filecheck import check_file, ordered_findings, summary
from ..workflows.config import load_config


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="amr-check",
        description="Validate AMR (PENMAN) files: syntax, variables, roles, "
        "PropBank frames, metadata. Prints path:line:col: CODE message for "
        "every finding. Exit status: 0 no errors, 1 an error (or a warning "
        "with --fail-on warning) or an unreadable file, 2 a configuration "
        "error or a refused file (not a regular file, too large, endless).",
        epilog="Defaults come from [tool.amrcheck.check] in pyproject.toml or "
        ".amrcheck.toml; options given here replace them. Rule codes: "
        "docs/rules.md; configuration: docs/hooks.md.",
    )
    parser.add_argument(
        "filenames", nargs="*", metavar="FILE", help="AMR or UMR (.umr) files"
    )
    parser.add_argument(
        "--select",
        action="append",
        metavar="CODES",
        help="report only these codes or prefixes (E, W4, E101); repeatable or "
        "comma-separated",
    )
    parser.add_argument(
        "--ignore",
        action="append",
        metavar="CODES",
        help="do not report these codes or prefixes",
    )
    parser.add_argument(
        "--fail-on",
        choices=("error", "warning"),
        help="fail on errors only (default) or on warnings too",
    )
    parser.add_argument("--config", metavar="PATH", help="configuration file to use")
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config)
        settings = config.check.override(args.select, args.ignore, args.fail_on)
    except ConfigError as exc:
        print(f"amr-check: error: {exc}", file=sys.stderr)
        return 2
    results = [
        check_file(Path(name), list(settings.select), list(settings.ignore), config.umr)
        for name in args.filenames
    ]
    for result in results:
        if result.problem is not None:
            print(f"amr-check: cannot read {result.problem}")
    for finding in ordered_findings(results):
        print(finding)
    failed = any(result.fails(settings.fail_on) for result in results)
    if failed or any(result.findings for result in results):
        print(summary(results))
    if any(result.refused for result in results):
        return 2  # not AMR input at all (a FIFO, a device, endless): a usage error
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
