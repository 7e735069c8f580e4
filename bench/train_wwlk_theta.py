"""Train the WWLKθ edge weights that ship in the package (issue 16).

Training data: the BAMBOO **train** split, main subtask of all three
tasks (``../shared/data/bamboo_train/{sts,sick,para}``), concatenated
into one pair of files and one score file (the dummy pairs — sick/para
pair 0, the last pair of every file — get ``nan``, so the trainer leaves
them out). The best weights are chosen on the same training pairs (no dev
pair is seen), so every BAMBOO dev figure of the result is out of sample.

    python bench/train_wwlk_theta.py [--out amrcheck/data/wwlk_theta_bamboo_train.json]

It runs ``amrcheck train wwlk --pairs TGT SRC --scores Y --seed 0 --quiet``
with the SPSA defaults (12,250 steps) and then records, in the file's
``provenance`` field, the command, the seed and the data it was made
from. About 5 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TRAIN = REPO.parent / "shared" / "data" / "bamboo_train"
TASKS = ("sts", "sick", "para")
DEFAULT_OUT = REPO / "amrcheck" / "data" / "wwlk_theta_bamboo_train.json"


def blocks(path: Path) -> list[str]:
    """The graph blocks (metadata + graph) of a BAMBOO file, in order."""
    text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
    return [b.strip("\n") for b in text.split("\n\n") if b.strip()]


def combine(folder: Path) -> tuple[Path, Path, Path, int]:
    """One tgt file, one src file and one score file for the three tasks."""
    tgt, src, scores = [], [], []
    for task in TASKS:
        t = blocks(TRAIN / task / "tgt.train.amr")
        s = blocks(TRAIN / task / "src.train.amr")
        y = (TRAIN / task / "train.y").read_text(encoding="utf-8").split()
        if not len(t) == len(s) == len(y):
            raise SystemExit(f"{task}: {len(t)} / {len(s)} graphs, {len(y)} scores")
        first = 0 if task == "sts" else 1  # sick/para: pair 0 is the header
        for i in range(len(t)):
            tgt.append(t[i])
            src.append(s[i])
            # the last pair of every file is the "Empty line" dummy
            scores.append(y[i] if first <= i < len(y) - 1 else "nan")
    paths = folder / "tgt.amr", folder / "src.amr", folder / "train.y"
    seps = ("\n\n", "\n\n", "\n")
    for path, items, sep in zip(paths, (tgt, src, scores), seps, strict=True):
        path.write_text(sep.join(items) + "\n", encoding="utf-8")
    return *paths, sum(1 for v in scores if v != "nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="amrcheck-theta-") as tmp:
        tgt, src, scores, pairs = combine(Path(tmp))
        command = [
            "amrcheck", "train", "wwlk", "--pairs", str(tgt), str(src),
            "--scores", str(scores), "--out", str(args.out),
            "--seed", str(args.seed), "--quiet",
        ]
        start = time.perf_counter()
        # the amrcheck script of this interpreter's environment
        script = Path(sys.executable).parent / "amrcheck"
        subprocess.run([str(script), *command[1:]], check=True)
        seconds = time.perf_counter() - start
    document = json.loads(args.out.read_text(encoding="utf-8"))
    document["provenance"] = {
        "command": "python bench/train_wwlk_theta.py  (runs: amrcheck train wwlk "
        "--pairs TGT SRC --scores Y --seed "
        f"{args.seed} --quiet, SPSA defaults)",
        "data": "BAMBOO train split (bamboo-amr-benchmark df6943c), main subtask "
        "of sts, sick and para concatenated (tgt = candidate, src = reference); "
        "dummy pairs left out; best weights chosen on the same training pairs",
        "pairs": pairs,
        "seed": args.seed,
        "seconds": round(seconds, 1),
    }
    args.out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"{args.out}: {len(document['weights'])} weights, {pairs} pairs, "
          f"{seconds:.0f} s; train Pearson "
          f"{document['training']['dev_pearson_start']:.4f} -> "
          f"{document['training']['dev_pearson_best']:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
