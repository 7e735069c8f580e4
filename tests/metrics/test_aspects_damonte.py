"""Damonte et al.'s aspect definitions (``--compat damonte``) on hand-made graphs.

Each case follows what their scripts (``mdtux89/amr-evaluation``:
``evaluation.sh``, ``scores.py``, ``utils.py``) do, and where it differs
from amrcheck's own definitions both are checked. The scripts themselves
are run as a peer by ``bench/bench_aspects_damonte.py`` (parity figures in
``bench/RESULTS.md``): they are not part of this repository.
"""

from __future__ import annotations

from amrcheck.metrics.aspects import aggregate_aspects, aspect_scores
from amrcheck.metrics.smatch import Smatch
from amrcheck.reading.corpus import decode

#: what ``--compat damonte`` scores with: smatch 1.0.4's reader and
#: counting, the root's concept in the TOP triple (as their early smatch)
SMATCH_104 = Smatch(compat="smatch-1.0.4", root="concept")


def _both(candidate: str, reference: str, aspect: str) -> tuple[dict[str, float], ...]:
    cand, ref = decode(candidate), decode(reference)
    keys = ("matched", "candidate", "reference")
    ours = aspect_scores(SMATCH_104, cand, ref)[aspect].counts
    theirs = aspect_scores(SMATCH_104, cand, ref, "damonte")[aspect].counts
    return {k: ours[k] for k in keys}, {k: theirs[k] for k in keys}


def _counts(matched: int, candidate: int, reference: int) -> dict[str, float]:
    return {"matched": matched, "candidate": candidate, "reference": reference}


def test_negation_counts_every_polarity_source() -> None:
    """``negations()``: the concept of every ``polarity`` triple's source."""
    ours, theirs = _both(
        "(w / want-01 :polarity (a / amr-unknown))",
        "(w / want-01 :polarity -)",
        "negation",
    )
    assert ours == _counts(0, 0, 1)
    assert theirs == _counts(1, 1, 1)


def test_concepts_are_a_multiset() -> None:
    """``disambig()`` numbers repeated concepts, so each occurrence counts."""
    ours, theirs = _both("(a / dog :mod (b / dog))", "(a / dog)", "concepts")
    assert theirs == _counts(1, 2, 1)
    assert ours == _counts(1, 2, 1)  # smatch 1.0.4's counting is a multiset too
    strict = aspect_scores(
        Smatch(), decode("(a / dog :mod (b / dog))"), decode("(a / dog)")
    )
    assert strict["concepts"].counts == _counts(1, 1, 1)


def test_no_wsd_gives_every_sense_01() -> None:
    """Their ``perl`` rewrite: ``-NN`` becomes ``-01``; a concept without a
    sense keeps none (amrcheck strips senses, so those match)."""
    ours, theirs = _both("(w / want-02)", "(w / want-01)", "no_wsd")
    assert ours["matched"] == theirs["matched"] == 2
    ours, theirs = _both("(w / want)", "(w / want-01)", "no_wsd")
    assert ours["matched"] == 2 and theirs["matched"] == 0  # concept and TOP


def test_unlabeled_keeps_inverse_roles_as_written() -> None:
    """Their ``sed`` relabels ``:ARG0-of`` before smatch inverts it."""
    candidate = "(b / boy :ARG0-of (w / want-01))"
    reference = "(w / want-01 :ARG0 (b / boy))"
    ours, theirs = _both(candidate, reference, "unlabeled")
    # two concepts and the relation (the roots, so TOP, differ)
    assert ours == _counts(3, 4, 4)
    assert theirs == _counts(2, 4, 4)  # b -> w against w -> b


def test_srl_is_smatch_on_the_argument_subgraph() -> None:
    """``srl()`` keeps the ARG relations and the concepts of their nodes,
    smatch adds a TOP triple (the first node's concept), and the subgraph
    is aligned on its own."""
    candidate = "(w / want-01 :ARG0 (b / boy) :mod (x / very))"
    reference = "(w / want-01 :ARG0 (g / girl))"
    ours, theirs = _both(candidate, reference, "srl")
    assert ours == _counts(1, 1, 1)  # the relation only, whole-graph alignment
    # want-01, boy / girl, TOP want-01, the ARG0: all but the concept match
    assert theirs == _counts(3, 4, 4)


def test_srl_subgraph_aligns_on_its_own() -> None:
    """Under the whole graph's alignment ``b`` goes to ``b2`` (its concept
    and modifier match there); the ARG0 subgraph, aligned on its own, maps
    the agent onto the agent."""
    candidate = "(w / want-01 :ARG0 (b / boy) :ARG1 (b2 / boy :mod (t / tall)))"
    reference = "(w / want-01 :ARG0 (b / boy :mod (t / tall)))"
    cand, ref = decode(candidate), decode(reference)
    theirs = aspect_scores(SMATCH_104, cand, ref, "damonte")["srl"].counts
    assert theirs["matched"] == theirs["reference"] == 4


def test_reentrancies_score_the_reentrant_subgraph() -> None:
    """``reentrancies()``: the relations into a node with two or more
    parents, the concepts of their nodes, and TOP, aligned on their own."""
    candidate = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
    reference = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))"
    ours, theirs = _both(candidate, reference, "reentrancies")
    assert ours == _counts(2, 2, 2)
    # want-01, boy, go-02 / go-01, TOP, two relations: the sense differs
    assert theirs == _counts(5, 6, 6)


def test_an_aspect_nothing_has_scores_zero() -> None:
    """Their ``scores.py`` prints P = R = F = 0 when neither side has any."""
    pair = aspect_scores(
        SMATCH_104, decode("(a / dog)"), decode("(a / dog)"), "damonte"
    )
    assert aggregate_aspects([pair], "damonte")["wikification"].f1 == 0.0
    assert aggregate_aspects([pair])["wikification"].f1 == 1.0
