"""rematch: motifs as SPEC §3 defines them, ablations, explanations, corpus score."""

from __future__ import annotations

import pytest

from amrcheck.metrics import get_metric
from amrcheck.metrics.rematch import Rematch, motif_kind, verbatlas_labels
from amrcheck.reading.corpus import decode

BOY = decode("(w / want-01 :ARG0 (b / boy :quant 2) :polarity -)")


def test_motifs_of_a_small_graph() -> None:
    motifs = Rematch(verbatlas=False).motifs(BOY)
    boy = ("boy", ("quant", "2"))
    want = ("want-01", ("polarity", "-"))
    assert motifs == {
        ("quant", "2"),
        ("polarity", "-"),
        boy,
        want,
        (want, "ARG0", boy),
    }
    assert {motif_kind(m) for m in motifs} == {"attribute", "instance", "relation"}


def test_verbatlas_label_replaces_propbank_concept() -> None:
    assert verbatlas_labels()["want-01"] == "require_need_want_hope"
    motifs = Rematch().motifs(decode("(w / want-01)"))
    assert motifs == {("require_need_want_hope",)}


def test_inverse_roles_and_mod_are_read_as_smatch_does() -> None:
    inverted = Rematch().motifs(decode("(b / boy :ARG0-of (w / walk-01))"))
    plain = Rematch().motifs(decode("(w / walk-01 :ARG0 (b / boy))"))
    assert inverted == plain
    # :mod is stored as inverted :domain; :mod with a constant is dropped
    assert Rematch().motifs(decode('(c / cat :mod "big")')) == {("cat",)}
    motifs = Rematch().motifs(decode("(c / cat :mod (b / big))"))
    assert motifs == {("big",), ("cat",), (("big",), "domain", ("cat",))}


def test_quoted_multiword_value_keeps_first_word_lowercased() -> None:
    motifs = Rematch().motifs(decode('(n / name :op1 "New York")'))
    assert ("op1", "new") in motifs


def test_score_and_symmetry() -> None:
    a = decode("(w / want-01 :ARG0 (b / boy))")
    b = decode("(w / want-01 :ARG0 (g / girl))")
    metric = get_metric("rematch")
    forward, backward = metric.score(a, b), metric.score(b, a)
    assert forward.f1 == backward.f1 == pytest.approx(1 / 5)
    assert forward.counts == {
        "shared": 1.0,
        "union": 5.0,
        "candidate": 3.0,
        "reference": 3.0,
    }
    assert metric.score(a, a).f1 == 1.0


@pytest.mark.parametrize(
    ("switch", "kind"),
    [
        ("attribute_motifs", "attribute"),
        ("instance_motifs", "instance"),
        ("relation_motifs", "relation"),
    ],
)
def test_ablation_switches_drop_one_motif_type(switch: str, kind: str) -> None:
    motifs = Rematch(**{switch: False}).motifs(BOY)
    full = Rematch().motifs(BOY)
    assert {m for m in full if motif_kind(m) != kind} == motifs


def test_labels_only_uses_bare_labels() -> None:
    motifs = Rematch(labels_only=True, verbatlas=False).motifs(BOY)
    assert ("boy",) in motifs and ("want-01",) in motifs
    assert (("want-01",), "ARG0", ("boy",)) in motifs


def test_corpus_score_is_sum_shared_over_sum_union() -> None:
    metric = get_metric("rematch")
    a = decode("(w / want-01 :ARG0 (b / boy))")
    b = decode("(w / want-01 :ARG0 (g / girl))")
    pairs = [metric.score(a, b), metric.score(a, a)]
    assert metric.aggregate(pairs).f1 == pytest.approx((1 + 3) / (5 + 3))


def test_explanation_traces_motifs_to_source() -> None:
    cand = decode("(w / want-01 :ARG0 (b / boy))")
    ref = decode("(w / want-01 :ARG0 (g / girl))")
    explanation = get_metric("rematch").score(cand, ref, explain=True).explanation
    assert explanation is not None
    units = explanation.units
    assert [str(m) for m, _ in units["matched"]] == [
        "instance (require_need_want_hope)"
    ]
    assert {str(m) for m in units["missing"]} == {
        "instance (girl)",
        "relation ((require_need_want_hope) ARG0 (girl))",
    }
    relation = next(m for m in units["extra"] if m.kind == "relation")
    # the relation motif points at the edge and both node definitions
    assert [ref.span.text for ref in relation.sources] == [
        "w / want-01",
        ":ARG0 (b",
        "b / boy",
    ]


def test_unknown_option_is_a_metric_error() -> None:
    from amrcheck.errors import MetricError

    with pytest.raises(MetricError):
        get_metric("rematch", colour=True)
