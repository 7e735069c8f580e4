"""Bench (issue 35, point 5): ``--aspects --compat damonte`` against Damonte
et al.'s own scripts, run as a peer.

The peer is ``mdtux89/amr-evaluation`` (fetched by the session's ``fetch``
tool; never committed here): its ``evaluation.sh`` (smatch, unlabeled,
no WSD) and ``scores.py`` (the other aspects) run unchanged on Python 3
from a temporary copy, with one change made there at run time: the
figures are printed with 4 decimals instead of 2 (``--significant 4`` for
its smatch, ``{0:.4f}`` in ``scores.py``), so that parity can be read at
4 decimals. The workload: the 1,562 Little Prince gold graphs (reference)
against a seeded "parsed" copy (candidate): in each graph some concepts,
senses and ARG roles are changed and some ``:polarity -`` dropped.

    python bench/bench_aspects_damonte.py \
        --peer /work/.mirror/mdtux89+amr-evaluation/repo/.git
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import penman

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workloads import DEFAULT_OUT, SHARED  # noqa: E402

LITTLE_PRINCE = SHARED / "little_prince" / "amr-bank-struct-v3.0.txt"
#: their names -> ours
ASPECT_NAMES = {
    "Smatch": "smatch",
    "Unlabeled": "unlabeled",
    "No WSD": "no_wsd",
    "Concepts": "concepts",
    "Named Ent.": "named_entities",
    "Negations": "negation",
    "Wikification": "wikification",
    "Reentrancies": "reentrancies",
    "SRL": "srl",
}
_LINE = re.compile(
    r"^(?P<name>.+?) -> (?:-> )?"
    r"P: (?P<p>[\d.]+) ?, R: (?P<r>[\d.]+) ?, F: (?P<f>[\d.]+)"
)
_SENSE = re.compile(r"-(\d+)$")


def _parsed(node: Any, rng: random.Random) -> Any:
    """A tree node as a parser might give it: some concepts, senses and ARG
    roles changed, some negations dropped (in place, depth first)."""
    variable, branches = node
    kept = []
    for role, target in branches:
        if isinstance(target, tuple):
            _parsed(target, rng)
        elif role == "/" and rng.random() < 0.10:
            target = f"{target}-changed"
        elif role == "/" and _SENSE.search(target) and rng.random() < 0.10:
            target = (
                _SENSE.sub("-02", target) if not target.endswith("-02") else target[:-3]
            )
        elif role == ":polarity" and rng.random() < 0.3:
            continue
        if role.startswith(":ARG") and rng.random() < 0.10:
            inverse = role.endswith("-of")
            role = ":ARG1" if not role.startswith(":ARG1") else ":ARG0"
            role += "-of" if inverse else ""
        kept.append((role, target))
    branches[:] = kept
    return node


def write_pair(out: Path) -> tuple[Path, Path]:
    """Gold and "parsed" Little Prince files, paired by position and id."""
    out.mkdir(parents=True, exist_ok=True)
    gold, parsed = out / "lpp.gold.amr", out / "lpp.parsed.amr"
    trees = list(penman.iterparse(LITTLE_PRINCE.read_text(encoding="utf-8")))
    rng = random.Random(0)

    def text(tree: penman.Tree) -> str:
        tree.metadata = {k: v for k, v in tree.metadata.items() if k in ("id", "snt")}
        return penman.format(tree)

    gold.write_text("\n\n".join(text(t) for t in trees) + "\n", encoding="utf-8")
    for tree in trees:
        _parsed(tree.node, rng)
    parsed.write_text("\n\n".join(text(t) for t in trees) + "\n", encoding="utf-8")
    return gold, parsed


def run_peer(peer: Path, gold: Path, parsed: Path) -> dict[str, tuple[float, ...]]:
    """Their figures: aspect -> (P, R, F1), from a temporary copy of ``peer``."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "amr-evaluation"
        subprocess.run(["git", "clone", "-q", str(peer), str(copy)], check=True)
        script = copy / "evaluation.sh"
        script.write_text(
            script.read_text().replace("--pr -f", "--pr --significant 4 -f")
        )
        scores = copy / "scores.py"
        scores.write_text(scores.read_text().replace("{0:.2f}", "{0:.4f}"))
        done = subprocess.run(
            ["bash", "evaluation.sh", str(parsed), str(gold)],
            cwd=copy,
            capture_output=True,
            text=True,
            check=True,
        )
    found = {}
    for line in done.stdout.splitlines():
        match = _LINE.match(line.strip())
        if match and match["name"] in ASPECT_NAMES:
            found[ASPECT_NAMES[match["name"]]] = (
                float(match["p"]),
                float(match["r"]),
                float(match["f"]),
            )
    return found


def run_ours(gold: Path, parsed: Path, damonte: bool) -> dict[str, tuple[float, ...]]:
    command = [
        str(Path(sys.executable).with_name("amrcheck")),
        "score",
        str(gold),
        str(parsed),
    ]
    command += ["--aspects", "--json", "--by", "position"]
    command += ["--compat", "damonte"] if damonte else []
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode not in (0, 1):  # 1: a graph counted as empty (said on stderr)
        raise SystemExit(done.stderr)
    aspects = json.loads(done.stdout)["results"][0]["aspects"]
    return {name: (a["precision"], a["recall"], a["f1"]) for name, a in aspects.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--peer",
        type=Path,
        required=True,
        help="git directory of mdtux89/amr-evaluation",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT / "damonte")
    args = parser.parse_args()
    if shutil.which("bash") is None or shutil.which("perl") is None:
        raise SystemExit("their evaluation.sh needs bash and perl")
    gold, parsed = write_pair(args.out)
    theirs = run_peer(args.peer, gold, parsed)
    print("their figures:", theirs, flush=True)
    damonte = run_ours(gold, parsed, damonte=True)
    default = run_ours(gold, parsed, damonte=False)
    print(
        "| aspect | theirs P / R / F1 | --compat damonte P / R / F1 | "
        "F1 difference | default definitions F1 |"
    )
    print("|---|---|---|---|---|")
    for name in ASPECT_NAMES.values():
        mine = damonte[name]
        reference = theirs.get(name)
        shown = "-" if reference is None else " / ".join(f"{v:.4f}" for v in reference)
        delta = "-" if reference is None else f"{mine[2] - reference[2]:+.4f}"
        print(
            f"| {name} | {shown} | {' / '.join(f'{v:.4f}' for v in mine)} | "
            f"{delta} | {default[name][2]:.4f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
