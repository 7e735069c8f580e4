"""rematch: Jaccard overlap of semantic motifs (Kachwala et al. 2024).

Each graph becomes a set of *motifs* (SPEC §3):

* attribute motifs ``(role, value)``, one per attribute;
* instance motifs ``(label, attribute_motif)`` for every attribute of a
  node, or ``(label,)`` for a node without attributes; ``label`` is the
  node's VerbAtlas frame label when its concept is a PropBank roleset
  known to ``pb2va`` (bundled, see ``amrcheck/data/README.rematch.md``),
  else the concept itself;
* relation motifs ``(source_instance_motif, role, target_instance_motif)``
  for every combination of the two nodes' instance motifs.

The pair score is the Jaccard index |M1 ∩ M2| / |M1 ∪ M2| of the two motif
sets (0 when nothing is shared); the corpus score is Σ∩ / Σ∪.
Linear in graph size (times the attribute fan-out of the nodes), no
alignment search, deterministic and symmetric.

Reading follows the reference (Rematch-RARE ``41e1834``, which reads with
smatch 1.0.4's ``amr.py``), because the motifs are built from what that
reader keeps: labels and constants lower-cased with trailing ``_``
stripped, a quoted value reduced to its first word, ``:X-of`` inverted
(except ``:consist-of``, ``:prep-out-of``, ``:prep-on-behalf-of``),
``:mod`` stored as inverted ``:domain``, and inverse roles or ``:mod``
pointing at a constant dropped; relation roles keep their written case.
TOP is not a motif. ISI alignment markers are not part of any label.

One difference from that reader, by default: it stores ``x :mod y`` as
``y :domain x`` but ``y :mod-of x`` — the same relation written the other
way round — as ``x :mod y``, so the motifs, and the score, depended on
how a graph was written (issue 24). Here ``:mod-of`` is stored as
``:mod`` is. ``compat="reference"`` restores the reader's behaviour.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from importlib import resources
from typing import Any, ClassVar

from ..graph import Graph
from . import register
from ._motifs import Motif, MotifSets, jaccard
from ._protocol import (
    Explanation,
    Reference,
    Score,
    TripleRef,
    check_reference,
    count_column,
)
from ._refs import written_ref


@lru_cache(maxsize=1)
def verbatlas_labels() -> dict[str, str]:
    """PropBank roleset -> VerbAtlas frame label (bundled, CC BY-NC-SA 4.0)."""
    path = resources.files("amrcheck.data").joinpath("pb2va_labels.json")
    labels: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return labels


@dataclass(frozen=True, slots=True)
class MotifRef:
    """One motif of one graph and the written triples it came from.

    ``kind`` is ``attribute``, ``instance`` or ``relation``; ``sources``
    are the triples (node definitions, attributes, the edge) that produced
    it — all of them, when several places produce the same motif.
    """

    kind: str
    motif: Motif
    sources: tuple[TripleRef, ...]

    def __str__(self) -> str:
        return f"{self.kind} {_render(self.motif)}"


def _render(motif: object) -> str:
    if isinstance(motif, tuple):
        return "(" + " ".join(_render(part) for part in motif) + ")"
    return str(motif)


def motif_kind(motif: Motif) -> str:
    """``attribute``, ``instance`` or ``relation``, from the motif's shape."""
    if len(motif) == 3:
        return "relation"
    if len(motif) == 1 or isinstance(motif[1], tuple):
        return "instance"
    return "attribute"


@register("rematch")
class Rematch:
    """rematch: Jaccard similarity of attribute, instance and relation motifs."""

    name: ClassVar[str] = "rematch"
    #: :meth:`aggregate` reads score columns as they are (:func:`corpus_score`)
    aggregates_columns: ClassVar[bool] = True

    @dataclass(frozen=True, slots=True)
    class Options:
        """rematch switches; the defaults are the published metric.

        The three ``*_motifs`` switches leave a motif type out of the sets
        (the ablations of the rematch paper's Table 5; instance motifs are
        still built, relation motifs are made of them). ``labels_only``
        reduces every instance motif to the bare node label, so attributes
        count only as attribute motifs. ``verbatlas=False`` keeps PropBank
        concepts instead of VerbAtlas frame labels. ``compat="reference"``:
        ``:mod-of`` read as smatch 1.0.4 reads it (see the module docstring).
        """

        attribute_motifs: bool = True
        instance_motifs: bool = True
        relation_motifs: bool = True
        labels_only: bool = False
        verbatlas: bool = True
        compat: Reference | None = None

        def __post_init__(self) -> None:
            check_reference(self.compat)

    def __init__(self, **options: Any) -> None:
        self.options = self.Options(**options)
        opts = self.options
        self._sets = MotifSets(
            verbatlas_labels() if opts.verbatlas else None,
            opts.compat is not None,
            (opts.attribute_motifs, opts.instance_motifs, opts.relation_motifs),
            opts.labels_only,
        )

    @classmethod
    def from_options(cls, options: Rematch.Options) -> Rematch:
        return cls(**{f.name: getattr(options, f.name) for f in fields(options)})

    # -- motifs -------------------------------------------------------------

    def motifs(self, graph: Graph) -> set[Motif]:
        """The motif set of ``graph``.

        Example:
            >>> from amrcheck.reading.corpus import decode
            >>> sorted(map(str, Rematch().motifs(decode('(d / dog :quant 2)'))))
            ["('dog', ('quant', '2'))", "('quant', '2')"]
        """
        return self._sets.motifs(graph)

    # -- scoring ------------------------------------------------------------

    def score(self, candidate: Graph, reference: Graph, explain: bool = False) -> Score:
        """Jaccard index of the two motif sets.

        Example:
            >>> from amrcheck.reading.corpus import decode
            >>> a = decode('(w / want-01 :ARG0 (b / boy))')
            >>> b = decode('(w / want-01 :ARG0 (g / girl))')
            >>> Rematch().score(a, b).f1  # shared: the want-01 motif only
            0.2
        """
        if not explain:  # the whole pair in one call (compiled where built so)
            return self._sets.score(candidate, reference)
        cand_origins: dict[Motif, set[int]] = {}
        ref_origins: dict[Motif, set[int]] = {}
        cand = self._sets.motifs(candidate, cand_origins)
        ref = self._sets.motifs(reference, ref_origins)
        score = jaccard(cand, ref)
        score.explanation = _explain(
            candidate, reference, cand, ref, cand_origins, ref_origins
        )
        return score

    def score_missing(self, reference: Graph) -> Score:
        """An unreadable or absent candidate: no motif, so the union is
        the reference's motifs."""
        size = float(len(self._sets.motifs(reference)))
        return Score(
            f1=0.0,
            counts={
                "shared": 0.0,
                "union": size,
                "candidate": 0.0,
                "reference": size,
            },
        )

    def aggregate(self, pairs: Sequence[Score]) -> Score:
        """Corpus score Σ shared / Σ union (the reference's non-``--ms`` mode)."""
        totals = {
            key: sum(count_column(pairs, key))
            for key in ("shared", "union", "candidate", "reference")
        }
        shared, union = totals["shared"], totals["union"]
        return Score(f1=shared / union if union else 0.0, counts=totals)


def _refs(graph: Graph, indices: set[int]) -> tuple[TripleRef, ...]:
    return tuple(written_ref(graph, i) for i in sorted(indices))


def _explain(
    candidate: Graph,
    reference: Graph,
    cand: set[Motif],
    ref: set[Motif],
    cand_origins: dict[Motif, set[int]],
    ref_origins: dict[Motif, set[int]],
) -> Explanation:
    def ref_of(graph: Graph, origins: dict[Motif, set[int]], motif: Motif) -> MotifRef:
        return MotifRef(motif_kind(motif), motif, _refs(graph, origins[motif]))

    # sorted by rendering so that explanations read the same in every run
    matched = [
        (ref_of(candidate, cand_origins, m), ref_of(reference, ref_origins, m))
        for m in sorted(cand & ref, key=_render)
    ]
    missing = [
        ref_of(reference, ref_origins, m) for m in sorted(ref - cand, key=_render)
    ]
    extra = [
        ref_of(candidate, cand_origins, m) for m in sorted(cand - ref, key=_render)
    ]
    return Explanation(
        units={"matched": matched, "missing": missing, "extra": extra},
        details={"unit": "motif"},
    )
