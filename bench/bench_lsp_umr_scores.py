"""Bench (not a test): the language server's scoring of a UMR document against
its reference, per version (engine thread time, no client).

The document is FILE with a ``# ::reference`` line naming a copy of it; each
edit types one character into a concept of a random sentence graph
(alternately inserting and deleting), and the version is read
(:func:`amr_lsp.umr.analyze_umr`) and scored (:func:`amr_lsp.umr_scores.score_umr`:
sentence lenses, document score, document-level layers). Measured: the
scoring of the first version, and of each edit. At the end the layers are
checked against ``amrcheck``'s own scoring of the file as last edited.

    python bench/bench_lsp_umr_scores.py [--edits 40] [FILE]

Without FILE: the largest ``.umr`` of ``../shared/data/umr/english``.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import tempfile
import time
from pathlib import Path

from amr_lsp.compare import Comparer
from amr_lsp.config import Settings
from amr_lsp.references import ReferenceStore
from amr_lsp.umr import UmrCache, UmrOptions, analyze_umr
from amr_lsp.umr_scores import KeptAlignments, score_umr
from amr_lsp.workspace import ReadPolicy
from amrcheck.workflows.umr_score import document_dict, score_umr_files

REPO = Path(__file__).resolve().parents[1]
ENGLISH = REPO.parent / "shared" / "data" / "umr" / "english"
#: a concept in a sentence graph: ``/ name`` (the place to type into)
_CONCEPT_RE = re.compile(r"/ ([a-z]+)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path)
    parser.add_argument("--edits", type=int, default=40)
    args = parser.parse_args()
    source = args.file or max(ENGLISH.glob("*.umr"), key=lambda p: p.stat().st_size)
    folder = Path(tempfile.mkdtemp(prefix="bench-umr-scores-"))
    gold = folder / "gold.umr"
    gold.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    document = folder / "doc.umr"
    text = "# ::reference gold.umr\n" + gold.read_text(encoding="utf-8")
    references = ReferenceStore()
    references.policy = ReadPolicy.build([folder], Settings())
    comparer, cache, kept = Comparer("smatch", {}), UmrCache(), KeptAlignments()
    places = [m.start(1) for m in _CONCEPT_RE.finditer(text)]
    rng = random.Random(0)
    timings, previous, inserted = [], None, None
    for version in range(1, args.edits + 2):
        if version > 1:
            if inserted is None:
                inserted = rng.choice(places)
                text = text[:inserted] + "x" + text[inserted:]
            else:
                text = text[:inserted] + text[inserted + 1:]
                inserted = None
        clock = time.perf_counter()
        umr = analyze_umr(document.as_uri(), version, text, "utf-16", cache,
                          UmrOptions())
        read = time.perf_counter()
        previous = score_umr(umr, text, Settings(), comparer, references, folder,
                             previous, kept)
        timings.append((read - clock, time.perf_counter() - read))
    assert previous is not None and previous.umr is not None
    document.write_text(text, encoding="utf-8")
    fresh = score_umr_files(gold, [document])[str(document)]
    same = document_dict(previous.umr) == document_dict(fresh)
    edits = sorted(score for _, score in timings[1:])
    p95 = edits[min(len(edits) - 1, int(0.95 * len(edits)))]
    print(f"{source.name}: {len(umr.reads)} sentences")
    print(f"first version: read {timings[0][0] * 1000:.0f} ms, "
          f"scored {timings[0][1] * 1000:.0f} ms")
    print(f"each edit, scored: median {statistics.median(edits) * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.1f} ms, max {edits[-1] * 1000:.1f} ms "
          f"({len(edits)} edits)")
    print(f"layers equal amrcheck's own scoring of the last version: {same}")


if __name__ == "__main__":
    main()
