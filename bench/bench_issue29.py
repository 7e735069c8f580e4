"""Bench (not a test): issue 29's figures for E001, its fix, and the diff.

* **closing fix**: every ``)`` of every graph of a corpus taken out in
  turn; for each, where E001 points (at the gap: in the run of ``)`` the
  one taken out was in) and what the quick fix "Close 1 parenthesis" does:
  repaired (penman reads the original graph's triples back), not offered,
  or wrong (a different graph: must be 0);
* **diff lines**: ``amrcheck diff OLD NEW`` on Little Prince v1.6 → v3.0,
  the lines printed by default and with ``--metadata``. v1.6 is not in
  ``../shared/data``: pass it with ``--lp16`` (``amr-bank-struct-v1.6.txt``
  of github.com/flipz357/AMR-World, ``data/reference_amrs/``).

    python bench/bench_issue29.py [--lp16 PATH]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import Counter
from pathlib import Path

import penman

from amrcheck import read_corpus, read_string, validate
from amrcheck.reading._parse import tokenize
from amrcheck.reading.layout import apply_edits
from amrcheck.validation.fixes import fix_for

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
CORPORA = {
    "Little Prince 3.0": SHARED / "little_prince" / "amr-bank-struct-v3.0.txt",
    "Bio AMR dev": SHARED / "bio_amr" / "amr-release-dev-bio.txt",
    "AMR guidelines": SHARED / "amr_guidelines" / "guidelines_examples.amr",
}


def _at_the_gap(broken: str, gap: int, at: int) -> bool:
    """E001 at ``at`` names the gap: only ``)`` (or the line's end) between."""
    low, high = sorted((gap, at))
    return broken[low:high].strip(")") == ""


def closing_fix(path: Path) -> Counter[str]:
    counts: Counter[str] = Counter()
    for entry in read_corpus(path).entries:
        if entry.graph is None:
            continue
        text = entry.graph.text
        original = sorted(penman.decode(text).triples)
        for kind, gap, _ in tokenize(text):
            if kind != "RPAREN":
                continue
            broken = text[:gap] + text[gap + 1 :]
            found = read_string(broken)
            [error] = [f for f in validate(found) if f.code == "E001"]
            counts["parens"] += 1
            counts["E001 at the gap"] += _at_the_gap(broken, gap, error.span.start)
            fix = fix_for(found, error)
            if fix is None:
                counts["not offered"] += 1
            elif sorted(penman.decode(apply_edits(broken, fix.edits)).triples) == (
                original
            ):
                counts["repaired"] += 1
            else:
                counts["wrong"] += 1
    return counts


def diff_lines(old: Path, new: Path, *options: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", "from amrcheck.cli import main; main()", "diff",
         str(old), str(new), *options],
        capture_output=True, text=True, check=False,
    )
    return len(done.stdout.splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lp16", type=Path, help="Little Prince v1.6")
    args = parser.parse_args()
    print("| corpus | `)` taken out | E001 at the gap | repaired | not offered "
          "| wrong |")
    print("|---|---|---|---|---|---|")
    for name, path in CORPORA.items():
        c = closing_fix(path)
        n = c["parens"]
        print(f"| {name} | {n:,} | {c['E001 at the gap'] / n:.1%} "
              f"| {c['repaired']:,} ({c['repaired'] / n:.1%}) "
              f"| {c['not offered']:,} | {c['wrong']} |")
    if args.lp16 is not None:
        new = CORPORA["Little Prince 3.0"]
        for options in ((), ("--metadata",)):
            lines = diff_lines(args.lp16, new, *options)
            print(f"amrcheck diff v1.6 v3.0 {' '.join(options)}: {lines:,} lines")


if __name__ == "__main__":
    main()
