"""Pair the graphs of a reference and a candidate file, and score the pairs.

Layer: engine, above corpus reading and the metrics. Pairing is by
position (the n-th graph of one file with the n-th of the other), and it
is all or nothing: a file with a different number of entries, or an
entry whose graph has a syntax error, is reported with its place
(``file:line:col``) instead of being dropped or truncated silently.

Note the order: files are given reference first, as on the command line,
while metrics take ``score(candidate, reference)``.

Example:
    >>> from amrcheck.corpus import read_string
    >>> from amrcheck.metrics import get_metric
    >>> ref = read_string("(a / b)\\n\\n(c / d)\\n", "ref.amr")
    >>> cand = read_string("(a / b)\\n\\n(c / e)\\n", "cand.amr")
    >>> result = score_pairs(get_metric("smatch"), pair_corpora(ref, cand))
    >>> [round(p.f1, 2) for p in result.pairs], round(result.micro.f1, 2)
    ([1.0, 0.5], 0.75)
    >>> pair_corpora(ref, read_string("(a / b)\\n", "short.amr"))
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    amrcheck.pairing.PairingError: ref.amr has 2 graphs but short.amr has 1: ...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .corpus import Corpus
from .errors import InputError
from .graph import Graph
from .metrics import CorpusScore, Metric, Score, corpus_score
from .parallel import parallel_map


class PairingError(InputError):
    """The two files cannot be paired; ``problems`` lists every reason."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True, slots=True)
class GraphPair:
    """The n-th graphs of the two files (``index`` is 0-based)."""

    index: int
    id: str
    candidate: Graph
    reference: Graph


def _where(corpus: Corpus, index: int) -> str:
    entry = corpus[index]
    line, column = entry.source.line_column(entry.start)
    return f"{corpus.path}:{line}:{column}"


def pair_corpora(reference: Corpus, candidate: Corpus) -> list[GraphPair]:
    """Pair entries by position.

    Raises:
        PairingError: the files differ in length or hold malformed graphs
            (every problem of both files is listed, with its place).
    """
    problems = [str(finding) for finding in reference.errors + candidate.errors]
    problems += [
        f"{_where(corpus, entry.index)}: graph {entry.index + 1} cannot be scored"
        for corpus in (reference, candidate)
        for entry in corpus
        if entry.graph is None and not entry.errors
    ]
    if len(reference) != len(candidate):
        longer, shorter = (
            (reference, candidate)
            if len(reference) > len(candidate)
            else (candidate, reference)
        )
        first = len(shorter)
        problems.insert(
            0,
            f"{reference.path} has {len(reference)} graphs but {candidate.path} has "
            f"{len(candidate)}: {_where(longer, first)}: graph {first + 1} has no "
            f"counterpart in {shorter.path}",
        )
    if problems:
        raise PairingError(problems)
    pairs = []
    for index, (ref, cand) in enumerate(zip(reference, candidate, strict=True)):
        assert ref.graph is not None and cand.graph is not None
        name = ref.id or cand.id or str(index)
        pairs.append(GraphPair(index, name, cand.graph, ref.graph))
    return pairs


class _PairScorer:
    """A picklable ``pair -> Score`` for :func:`parallel_map`."""

    def __init__(self, metric: Metric, explain: bool) -> None:
        self.metric = metric
        self.explain = explain

    def __call__(self, pair: GraphPair) -> Score:
        return self.metric.score(pair.candidate, pair.reference, explain=self.explain)


def score_pairs(
    metric: Metric,
    pairs: Sequence[GraphPair],
    jobs: int = 1,
    explain: bool = False,
    settings: dict[str, Any] | None = None,
) -> CorpusScore:
    """Score every pair (in ``jobs`` processes) and aggregate micro and macro.

    Per-pair results are identical whatever ``jobs`` is.
    """
    scores = parallel_map(_PairScorer(metric, explain), pairs, jobs=jobs)
    if settings is None:
        describe = getattr(metric, "settings", None)
        settings = describe() if callable(describe) else {}
    return corpus_score(metric, scores, settings)
