"""BAMBOO (Opitz, Daza & Frank 2021): how well metric scores track human ones.

A BAMBOO folder holds ``<task>/<subtask>/{tgt,src}.<split>.amr`` for the
tasks ``sts``, ``sick``, ``para`` and the subtasks ``main``, ``reify``,
``syno``, ``role_confusion``, plus ``<task>/<split>.y`` (human scores,
normalised to [0, 1], aligned with the main/reify/syno pairs). A metric is
called with candidate = ``tgt``, reference = ``src`` (BAMBOO's order).

Scoring follows the official ``evaluate4tasks.py`` (bamboo-amr-benchmark
``df6943c``, SPEC §5):

* main / reify / syno: Pearson r × 100 between metric and human scores
  over the scored pairs, which leave out BAMBOO's dummy pairs: the last
  pair of every file (``# ::snt Empty line``) and, in sick and para, pair
  0 (the header row of the original TSV): sts pairs [0, N-1), sick and
  para pairs [1, N-1);
* role_confusion: pairwise accuracy × 100 over pairs (2i, 2i+1): correct
  only if the original (odd) pair scores strictly higher than the
  role-swapped (even) pair before it — ties are errors;
* AMEAN: the arithmetic mean of the 12 numbers.

A ``tgt`` graph that cannot be read counts as an empty graph
(:meth:`amrcheck.metrics.Metric.score_missing`: its prediction is 0),
so a metric is never spared a hard pair; a ``src`` graph that cannot be
read leaves its pair out of the subtask's measure (and, in role
confusion, the comparison it belongs to). :class:`BambooResult` lists
both, with their places.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..execution import Jobs, Progress, run_map
from ..graph import Graph
from ..metrics import Metric
from ..pairing.graphs import Gap, Pairing, PairingError, pair_graphs, pair_scorer
from ..reading.corpus import read_corpus
from ..reading.files import read_input_text

TASKS: tuple[str, ...] = ("sts", "sick", "para")
SUBTASKS: tuple[str, ...] = ("main", "reify", "syno", "role_confusion")
#: the 12 subtask ids in the order of the BAMBOO table
SUBTASK_IDS: tuple[str, ...] = tuple(
    f"{task}.{subtask}" for subtask in SUBTASKS for task in TASKS
)
#: tasks whose pair 0 is the original TSV's header row
_HEADER_DUMMY = frozenset({"sick", "para"})


@dataclass(slots=True)
class BambooSubtask:
    """One of the 12 subtasks: its files, scored pairs and human scores."""

    id: str
    candidate_path: Path  # tgt
    reference_path: Path  # src
    #: pair indices that are scored (dummies left out)
    scored: range
    #: human score of each scored pair; empty for role_confusion
    human: list[float] = field(default_factory=list)

    @property
    def task(self) -> str:
        return self.id.split(".")[0]

    @property
    def is_role_confusion(self) -> bool:
        return self.id.endswith(".role_confusion")

    def measure(self, predictions: Sequence[float | None]) -> float:
        """Pearson × 100, or pairwise accuracy × 100 for role confusion.

        A prediction of None (a pair that cannot be judged) is left out,
        with its human score or its role-confusion comparison.

        Raises:
            InputError: too few pairs are left to measure (Pearson needs two,
                role confusion one comparison).
        """
        if self.is_role_confusion:
            judged = [
                (original, swapped)
                for i in range(len(predictions) // 2)
                if (original := predictions[2 * i + 1]) is not None
                and (swapped := predictions[2 * i]) is not None
            ]
            if not judged:
                raise InputError(
                    f"BAMBOO {self.id}: no role-confusion comparison can be judged "
                    f"(pairs: {len(predictions)})",
                    str(self.candidate_path),
                )
            correct = sum(1 for original, swapped in judged if original > swapped)
            return correct / len(judged) * 100
        kept = [
            (value, human)
            for i, human in zip(self.scored, self.human, strict=True)
            if (value := predictions[i]) is not None
        ]
        if len(kept) < 2:
            raise InputError(
                f"BAMBOO {self.id}: {len(kept)} scored pair(s) with a human score "
                "(the dummy pairs left out); Pearson's r needs at least 2",
                str(self.candidate_path),
            )
        # imported here: scipy.stats takes most of a second to import
        from scipy.stats import pearsonr

        predicted, humans = zip(*kept, strict=True)
        return float(pearsonr(predicted, humans)[0]) * 100


@dataclass(slots=True)
class BambooResult:
    """Per-subtask values (× 100, table order) and their mean."""

    values: dict[str, float]
    #: per subtask, its pairs that could not be scored as written: a ``tgt``
    #: graph counted as an empty graph, or a ``src`` graph that leaves its
    #: pair out
    gaps: dict[str, list[Gap]] = field(default_factory=dict)
    #: pairs whose alignment search the time budget stopped (their scores
    #: are the best alignment found: lower bounds)
    cut: int = 0

    @property
    def amean(self) -> float:
        return sum(self.values.values()) / len(self.values)

    def row(self) -> list[float]:
        """The values in table order (the subtasks evaluated), then AMEAN."""
        return [self.values[i] for i in SUBTASK_IDS if i in self.values] + [self.amean]


def _count_pairs(path: Path) -> int:
    return len(read_corpus(path).entries)


def load_bamboo(root: str | Path, split: str = "dev") -> list[BambooSubtask]:
    """The 12 subtasks of the BAMBOO folder ``root`` (files are checked).

    Raises:
        InputError: a file is missing or the human scores do not line up.
    """
    root = Path(root)
    subtasks = []
    for subtask_id in SUBTASK_IDS:
        task, subtask = subtask_id.split(".")
        folder = root / task / subtask
        tgt, src = folder / f"tgt.{split}.amr", folder / f"src.{split}.amr"
        for path in (tgt, src):
            if not path.is_file():
                raise InputError("BAMBOO file not found", str(path))
        if subtask == "role_confusion":
            subtasks.append(BambooSubtask(subtask_id, tgt, src, range(0)))
            continue
        n = _count_pairs(tgt)
        scored = range(1 if task in _HEADER_DUMMY else 0, n - 1)
        human = _human_scores(root / task / f"{split}.y", scored)
        subtasks.append(BambooSubtask(subtask_id, tgt, src, scored, human))
    return subtasks


def _human_scores(path: Path, scored: range) -> list[float]:
    lines = read_input_text(path).split()
    if len(lines) < scored.stop:
        raise InputError(
            f"{len(lines)} human scores, but pairs up to {scored.stop - 1} are scored",
            str(path),
        )
    return [float(lines[i]) for i in scored]


def evaluate_bamboo(
    subtasks: Sequence[BambooSubtask],
    predictions: Mapping[str, Sequence[float | None]],
) -> BambooResult:
    """The BAMBOO table row for per-pair ``predictions`` (one list per subtask id).

    Every pair of a subtask needs a prediction, dummies included (they are
    left out here, not by the caller); None for a pair that cannot be
    judged.
    """
    return BambooResult(
        {task.id: task.measure(predictions[task.id]) for task in subtasks}
    )


def score_bamboo(
    subtasks: Sequence[BambooSubtask],
    score: Callable[[Graph, Graph], float],
) -> dict[str, list[float]]:
    """Per-pair scores ``score(tgt, src)`` for every subtask.

    Raises:
        InputError: a graph does not parse, or the two files differ in length.
    """
    predictions: dict[str, list[float]] = {}
    for task in subtasks:
        candidates = read_corpus(task.candidate_path)
        references = read_corpus(task.reference_path)
        if len(candidates) != len(references):
            raise InputError(
                f"{len(candidates)} graphs, but {len(references)} in "
                f"{task.reference_path}",
                str(task.candidate_path),
            )
        values = []
        for cand, ref in zip(candidates, references, strict=False):
            if cand.graph is None or ref.graph is None:
                broken = cand if cand.graph is None else ref
                raise InputError(
                    f"pair {cand.index}: graph {broken.label} does not parse",
                    broken.source.path,
                )
            values.append(score(cand.graph, ref.graph))
        predictions[task.id] = values
    return predictions


def subtask_pairs(task: BambooSubtask) -> Pairing:
    """The (tgt, src) graph pairs of a subtask, by position, as BAMBOO pairs them.

    A pair whose ``tgt`` graph does not parse has no candidate; one whose
    ``src`` graph does not parse is not among the pairs (each is a gap).

    Raises:
        PairingError: the files differ in length (with the place).
    """
    pairing = pair_graphs(
        read_corpus(task.reference_path), read_corpus(task.candidate_path)
    )
    if pairing.unpaired:
        raise PairingError(pairing.unpaired)
    return pairing


def run_bamboo(
    subtasks: Sequence[BambooSubtask],
    metric: Metric,
    jobs: Jobs = 1,
    progress: Progress | None = None,
) -> tuple[dict[str, list[float | None]], BambooResult]:
    """Score every pair of ``subtasks`` with ``metric`` (in ``jobs`` processes).

    Returns:
        The per-pair F1s of each subtask (dummies included; None where
        the ``src`` graph cannot be read) and the table row (Pearson × 100
        / pairwise accuracy × 100, AMEAN over the given subtasks), with
        the gaps of each subtask.
    """
    scorer = pair_scorer(metric)
    predictions: dict[str, list[float | None]] = {}
    gaps: dict[str, list[Gap]] = {}
    cut = 0
    for task in subtasks:
        pairing = subtask_pairs(task)
        scores = run_map(scorer, pairing.pairs, jobs=jobs, progress=progress)
        found: list[float | None] = [None] * len(pairing.matching.rows)
        for pair, score in zip(pairing.pairs, scores, strict=True):
            found[pair.index] = score.f1
            cut += int(score.counts.get("cut", 0))
        predictions[task.id] = found
        if pairing.gaps:
            gaps[task.id] = pairing.gaps
    result = evaluate_bamboo(subtasks, predictions)
    result.gaps = gaps
    result.cut = cut
    return predictions, result
