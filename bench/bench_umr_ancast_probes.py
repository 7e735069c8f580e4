"""Each difference from AnCast++ on the English release, traced (issue 31).

AnCast++ (``pip install ancast``, MIT) runs here as a peer, in this
process; its code is not copied. Two parts:

* the probes of ``tests/data/umr/ancast`` (one edit each against
  ``gold.umr``): AnCast's F1 of the edited group beside ours;
* the release pairs where the F1s differ in ``bench_umr_score.py`` (the
  same seeded perturbations: the first five files, seed 0): for each group
  that differs, the triples one tool reads and the other does not, and
  AnCast's weighting of what it finds missing — each cluster of related
  nodes that loses closed relations, its node count, its closed relations,
  and the share of the score it loses (nodes × lost / closed / all nodes).

    PYTHONPATH=$PWD python bench/bench_umr_ancast_probes.py
"""

from __future__ import annotations

import logging
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from amrcheck.reading.umr import read_umr
from amrcheck.workflows.umr_score import score_document

ROOT = Path(__file__).resolve().parents[1]
PROBES = ROOT / "tests" / "data" / "umr" / "ancast"
sys.path.insert(0, str(Path(__file__).parent))
from bench_umr_score import ENGLISH, perturb, ufal_layout  # noqa: E402

#: the release pairs and groups whose F1s differ (bench/RESULTS.md)
DIFFERING = {
    "english_umr-0001.umr": ["temporal"],
    "english_umr-0004.umr": ["modal"],
    "english_umr-0005.umr": ["temporal", "coref"],
}


def ancast_match(gold: Path, test: Path) -> Any:
    from ancast.document import DocumentMatch
    from ancast.evaluate import resolve_inputs

    pred = resolve_inputs(str(test), exts=None, delimiter="\n\n\n")
    ref = resolve_inputs(str(gold), exts=None, delimiter="\n\n\n")
    match = DocumentMatch()
    match.compute_scores(pred_inputs=pred[0], gold_inputs=ref[0])
    return match


def probes() -> None:
    gold = PROBES / "gold.umr"
    print("probe | group | AnCast F1 | amrcheck F1 (correct/cand, found/ref)")
    for path in sorted(PROBES.glob("*.umr")):
        if path.name == "gold.umr":
            continue
        match = ancast_match(gold, path)
        ours = score_document(read_umr(gold), read_umr(path)).groups
        for group, layer in ours.items():
            theirs = float(getattr(match, f"{group}_fscore"))
            if abs(theirs - 1.0) > 1e-9 or abs(layer.f1 - 1.0) > 1e-9:
                print(
                    f"{path.stem} | {group} | {theirs:.4f} | {layer.f1:.4f} "
                    f"({layer.correct}/{layer.candidate}, "
                    f"{layer.found}/{layer.reference})"
                )


def _written(path: Path, group: str) -> set[tuple[str, str, str]]:
    return {
        (t.source, t.relation.lstrip(":"), t.target)
        for s in read_umr(path).sentences
        for t in s.document.triples
        if t.group.lstrip(":") == group
    }


def trace(gold: Path, test: Path, group: str) -> None:
    from ancast.closure import get_cluster
    from ancast.document import get_edge_list_coref, get_edge_list_temp

    match = ancast_match(gold, test)
    names = match.doc_var_list["gold"]
    theirs = {
        (names[h], r, names[t])
        for (h, t), r in match.doc_annotations_gold[group].items()
    }
    ours = _written(gold, group)
    scores = score_document(read_umr(gold), read_umr(test)).groups[group]
    print(
        f"  {group}: AnCast {float(getattr(match, f'{group}_fscore')):.4f}, "
        f"amrcheck {scores.f1:.4f} ({scores.correct}/{scores.candidate}, "
        f"{scores.found}/{scores.reference})"
    )
    print(f"    reference triples amrcheck reads, AnCast not: {sorted(ours - theirs)}")
    edges = get_edge_list_temp if group == "temporal" else get_edge_list_coref
    if group == "modal":
        return
    test_clusters, test_closed, *_ = get_cluster(
        edges(match.doc_annotations_test[group])
    )
    gold_clusters, gold_closed, *_ = get_cluster(
        edges(match.doc_annotations_gold[group])
    )

    def shown(relation: str) -> str:
        a, b, kind = relation.split("|")
        return f"{names.get(int(a), a)} {kind} {names.get(int(b), b)}"

    for side, clusters, other in (
        ("candidate", test_clusters, gold_closed),
        ("reference", gold_clusters, test_closed),
    ):
        nodes = sum(len(members) for _, members in clusters)
        for closed, members in clusters:
            lost = closed - other
            if lost:
                share = len(members) * len(lost) / len(closed) / nodes
                print(
                    f"    AnCast {side} cluster: {len(members)} of {nodes} nodes, "
                    f"{len(closed)} closed relations, not on the other side "
                    f"{[shown(r) for r in lost]}: loses {share:.6f} of the "
                    f"{'precision' if side == 'candidate' else 'recall'}"
                )


def release() -> None:
    rng = random.Random(0)
    work = Path(tempfile.mkdtemp(prefix="umr-ancast-"))
    for number, path in enumerate(sorted(ENGLISH.glob("*.umr"))[:5]):
        gold = work / f"gold-{path.name}"
        gold.write_text(ufal_layout(path), encoding="utf-8")
        copy = work / path.name
        copy.write_text(
            perturb(gold.read_text(encoding="utf-8"), rng, number % 2 == 1),
            encoding="utf-8",
        )
        for group in DIFFERING.get(path.name, []):
            print(path.name)
            trace(gold, copy, group)


def main() -> int:
    logging.disable(logging.CRITICAL)  # AnCast logs every sentence
    probes()
    release()
    return 0


if __name__ == "__main__":
    sys.exit(main())
