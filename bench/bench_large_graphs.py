"""Bench (issue 35, point 6): smatch on one large graph, bounded search.

Multi-sentence documents are one graph: a ``multi-sentence`` root with
``:snt1 ... :sntN``, each pointing at one sentence's graph. This joins the
first N Little Prince sentences so (the reference) and pairs it with a
"parsed" copy (the candidate): in each sentence, a fixed random share of
concepts and of ARG roles are changed (seeded, so every run scores the same
pair). The pair is scored as one graph pair by ``amrcheck score`` with its
defaults (time budget included), and the report's F1, whether it was
proven optimal, and its upper bound are kept.

    python bench/bench_large_graphs.py [--sentences 10 20 50 100 200]
        [--time-budget S] [--out /tmp/amrcheck-bench]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import penman

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workloads import DEFAULT_OUT, REPO, SHARED, run_timed  # noqa: E402

LITTLE_PRINCE = SHARED / "little_prince" / "amr-bank-struct-v3.0.txt"
#: share of concepts and of ARG roles changed in the candidate
CONCEPT_CHANGES, ROLE_CHANGES = 0.15, 0.10


def _sentence_triples(
    graph: penman.Graph, prefix: str, rng: random.Random | None
) -> list[tuple[str, str, str]]:
    """``graph``'s triples, variables prefixed; perturbed when ``rng`` is given."""
    names = set(graph.variables())
    triples = []
    for source, role, target in graph.triples:
        source = prefix + source if source in names else source
        target = prefix + target if target in names else target
        if rng is not None and role == ":instance" and rng.random() < CONCEPT_CHANGES:
            target = f"{target}-changed"
        elif (
            rng is not None and role.startswith(":ARG") and rng.random() < ROLE_CHANGES
        ):
            role = ":ARG1" if role != ":ARG1" else ":ARG0"
        triples.append((source, role, target))
    return triples


def joined(sentences: int, perturbed: bool) -> str:
    """The first ``sentences`` Little Prince graphs as one multi-sentence graph."""
    graphs = penman.load(str(LITTLE_PRINCE))[:sentences]
    triples = [("m", ":instance", "multi-sentence")]
    for number, graph in enumerate(graphs, start=1):
        prefix = f"s{number}"
        rng = random.Random(number) if perturbed else None
        triples.append(("m", f":snt{number}", prefix + graph.top))
        triples += _sentence_triples(graph, prefix, rng)
    return penman.encode(penman.Graph(triples, top="m"))


def write_pair(sentences: int, out: Path) -> tuple[Path, Path]:
    """Reference and candidate files of the joined pair."""
    out.mkdir(parents=True, exist_ok=True)
    ref = out / f"joined{sentences}.ref.amr"
    cand = out / f"joined{sentences}.cand.amr"
    ref.write_text(f"# ::id doc\n{joined(sentences, False)}\n", encoding="utf-8")
    cand.write_text(f"# ::id doc\n{joined(sentences, True)}\n", encoding="utf-8")
    return ref, cand


def measure(sentences: int, out: Path, extra: list[str]) -> dict[str, object]:
    ref, cand = write_pair(sentences, out)
    command = [
        str(Path(sys.executable).with_name("amrcheck")),
        "score",
        str(ref),
        str(cand),
        "--json",
    ]
    wall, cpu, stdout = run_timed(command + extra)
    micro = json.loads(stdout)["results"][0]["micro"]
    return {
        "sentences": sentences,
        "triples": micro["counts"]["reference"],
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "f1": round(micro["f1"], 4),
        "optimal": bool(micro["counts"]["optimal"]),
        "f1_upper_bound": round(micro["f1_upper_bound"], 4),
        "cut": int(micro["counts"]["cut"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sentences", type=int, nargs="+", default=[10, 20, 50, 100, 200]
    )
    parser.add_argument("--time-budget", type=float, default=None)
    parser.add_argument("--exact", action="store_true")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    extra = [] if args.time_budget is None else ["--time-budget", str(args.time_budget)]
    extra += ["--exact"] if args.exact else []
    print(f"# amrcheck score {' '.join(extra)} (repo {REPO.name})")
    print(
        "| sentences | reference triples | wall s | CPU s | F1 | optimal "
        "| F1 upper bound | pairs cut |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for sentences in args.sentences:
        row = measure(sentences, args.out, extra)
        print("| " + " | ".join(str(v) for v in row.values()) + " |", flush=True)


if __name__ == "__main__":
    main()
