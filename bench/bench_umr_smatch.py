"""smatch on UMR sentence graphs against smatch 1.0.4 (issue 31).

For English release files and perturbed copies (the edits of
``bench_umr_score.perturb``), every sentence pair whose two graphs read is
scored by ``smatch.py --ms --significant 6`` (PyPI smatch 1.0.4, its graphs
written out as an AMR file) and by amrcheck on the UMR files themselves
(``amrcheck.workflows.evaluate``, smatch with ``compat=smatch-1.0.4``,
``exact=True``). smatch 1.0.4 climbs hills, so its F1 is a lower bound of
the optimum: amrcheck's F1 must equal it or be higher, never lower.

    pip install smatch==1.0.4
    PYTHONPATH=$PWD python bench/bench_umr_smatch.py [--limit 20]
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_umr_score import ENGLISH, perturb

from amrcheck.metrics import get_metric
from amrcheck.reading.umr import read_umr
from amrcheck.workflows.evaluate import evaluate


def graphs_file(path: Path, keys: list[str], out: Path) -> None:
    """The sentence graphs of ``path`` with keys ``keys`` as an AMR file."""
    by_key = {f"snt{s.number}": s for s in read_umr(path).sentences}
    blocks = []
    for key in keys:
        graph = by_key[key].graph
        assert graph is not None
        blocks.append(f"# ::id {key}\n{' '.join(graph.text.split())}\n")
    out.write_text("\n".join(blocks), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=20, help="English files")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    smatch_py = shutil.which("smatch.py", path=str(Path(sys.executable).parent))
    if smatch_py is None:
        print("needs smatch.py: pip install smatch==1.0.4")
        return 2
    metric = get_metric("smatch", compat="smatch-1.0.4", exact=True)
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="umr-smatch-"))
    equal = higher = lower = 0
    for path in sorted(ENGLISH.glob("*.umr"))[: args.limit]:
        copy = work / path.name
        copy.write_text(
            perturb(path.read_text(encoding="utf-8"), rng, False), encoding="utf-8"
        )
        ours = evaluate(path, [copy], [metric])
        result = ours.results[0]
        gaps = {g.key for gaps in ours.counted_empty.values() for g in gaps}
        keys = [k for k in result.ids if k not in gaps]
        f1s = dict(zip(result.ids, (p.f1 for p in result.corpus.pairs), strict=True))
        graphs_file(path, keys, work / "ref.amr")
        graphs_file(copy, keys, work / "cand.amr")
        done = subprocess.run(
            [
                sys.executable,
                smatch_py,
                "--ms",
                "--significant",
                "6",
                "-f",
                str(work / "cand.amr"),
                str(work / "ref.amr"),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        theirs = [
            float(line.split()[1])
            for line in done.stdout.splitlines()
            if line.startswith("F-score")
        ][: len(keys)]
        for key, f1 in zip(keys, theirs, strict=True):
            mine = round(f1s[key], 6)
            if abs(mine - f1) < 1e-6:
                equal += 1
            elif mine > f1:
                higher += 1
            else:
                lower += 1
                print(f"LOWER {path.name} {key}: amrcheck {mine} smatch.py {f1}")
    shutil.rmtree(work)
    print(
        f"sentence pairs: {equal + higher + lower}; equal {equal}, amrcheck higher "
        f"(smatch.py's hill climb short of the optimum) {higher}, lower {lower}"
    )
    return 0 if not lower else 1


if __name__ == "__main__":
    sys.exit(main())
