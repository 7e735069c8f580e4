"""Bench (not a test): the editor's per-edit analysis in process, phase by phase.

Runs :func:`amr_lsp.analysis.analyze` on all Little Prince graphs against
:func:`bench_lsp.reference_copy` (as ``bench_lsp.py`` does, without the
server process and its protocol), then on 60 versions, each with one
character typed into a random concept, and prints the medians of the
``compare`` phase (pairing with the reference, cache look-ups, empty
graphs) and of the whole analysis. Run it once per checkout to compare
two versions of the pairing (issue 33):

    PYTHONPATH=$PWD python bench/bench_lsp_pairing.py [--edits 60]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from amr_lsp.analysis import analyze  # noqa: E402
from amr_lsp.compare import Comparer  # noqa: E402
from amr_lsp.config import Settings  # noqa: E402
from amr_lsp.documents import DocumentStore  # noqa: E402
from amr_lsp.references import ReferenceStore  # noqa: E402
from amrcheck.validation.validate import GraphFindingsCache  # noqa: E402
from bench.bench_lsp import DEFAULT_FILE, reference_copy  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=60)
    args = parser.parse_args()
    text = DEFAULT_FILE.read_text(encoding="utf-8")
    root = Path(tempfile.mkdtemp())
    for folder, content in (("gold", reference_copy(text)), ("ann", text)):
        (root / folder).mkdir()
        (root / folder / "lp.amr").write_text(content, encoding="utf-8")
    uri = (root / "ann" / "lp.amr").as_uri()
    settings = Settings(references={"ann/*.amr": "gold/{name}.amr"})
    documents, references = DocumentStore(), ReferenceStore()
    comparer, cache = Comparer("smatch", {}), GraphFindingsCache()

    def version(number: int, source: str, previous=None):  # type: ignore[no-untyped-def]
        parsed = documents.parse(uri, number, source)
        return analyze(
            parsed, settings, comparer, references, root, cache, previous
        )

    analysis = version(1, text)
    rng = random.Random(1)
    concepts = [i + 3 for i in range(len(text)) if text.startswith(" / ", i)]
    compare, total = [], []
    for number in range(2, args.edits + 2):
        at = rng.choice(concepts)
        start = time.perf_counter()
        analysis = version(number, text[:at] + "x" + text[at:], analysis)
        total.append(time.perf_counter() - start)
        compare.append(analysis.timings["compare"])
    score = analysis.document_score
    print(
        f"compare median {statistics.median(compare) * 1000:.1f} ms, "
        f"analyze median {statistics.median(total) * 1000:.1f} ms "
        f"({args.edits} edits; document F1 {score.f1 if score else None})"
    )


if __name__ == "__main__":
    main()
