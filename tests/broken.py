"""Broken copies of AMR files, and every registered metric (issue 21).

Honest scores are tested the same way in every front end: a file with one
graph broken (its last ``)`` removed, so it cannot be read) must score
lower than the same file unbroken, with every metric, and the broken
graph's own row must be there with F1 0.
"""

from __future__ import annotations

from pathlib import Path

from amrcheck.metrics import metric_names, resolve
from amrcheck.metrics.wwlk import save_weights

from .conftest import data_path

#: small word vectors, so that the graded metrics load in a moment
MINI = str(data_path("vectors/glove-mini.50d.txt"))
#: every registered metric under its own name (an alias resolves to one of them)
METRICS = [name for name in metric_names() if resolve(name) == name]
#: a little graph file with ids: four pairs that score well but not 1
REFERENCE = "".join(
    f"# ::id g{n}\n(x / {concept} :ARG0 (b / boy) :ARG1 (g / girl))\n\n"
    for n, concept in enumerate(("want-01", "see-01", "like-01", "hear-01"))
)
#: the candidate: the same graphs with one wrong concept each, graph g1
#: (:data:`WORST`) wrong twice
CANDIDATE = REFERENCE.replace("girl", "woman").replace(
    "see-01 :ARG0 (b / boy)", "see-01 :ARG0 (b / man)"
)

#: the graph that the tests break: it scores as well as most
BROKEN = 0
#: the graph that scores worst: leaving it out would raise any corpus score
WORST = 1


def blocks(text: str) -> list[str]:
    """The blank-line separated blocks of ``text``."""
    return [block for block in text.strip().split("\n\n") if block.strip()]


def break_graph(text: str, index: int) -> str:
    """``text`` with the graph of block ``index`` broken: its last ``)`` removed."""
    parts = blocks(text)
    block = parts[index]
    cut = block.rindex(")")
    parts[index] = block[:cut] + block[cut + 1 :]
    return "\n\n".join(parts) + "\n"


def broken_candidate() -> str:
    """:data:`CANDIDATE` with graph :data:`BROKEN` broken: what every front
    end's honest-score test reads."""
    return break_graph(CANDIDATE, BROKEN)


def metric_options(name: str, folder: Path) -> dict[str, str]:
    """The options ``name`` needs here: small vectors, and weights for WWLKθ
    (written into ``folder``)."""
    options: dict[str, str] = {}
    if name in ("s2match", "wwlk", "wwlk-theta", "wlmatch-v1"):
        options["vectors"] = MINI
    if name == "wwlk-theta":
        weights = folder / "theta.json"
        save_weights(weights, {":arg0": 0.9, ":arg1": 0.3}, {"iterations": 2}, {})
        options["weights"] = str(weights)
    return options


def option_args(name: str, folder: Path) -> list[str]:
    """:func:`metric_options` as ``-o key=value`` arguments."""
    return [
        arg
        for key, value in metric_options(name, folder).items()
        for arg in ("-o", f"{key}={value}")
    ]


#: BAMBOO's last pair of every file is a dummy
DUMMY = "# ::snt Empty line\n(e / empty)\n"


def little_bamboo(folder: Path, tgt: str = CANDIDATE, src: str = REFERENCE) -> Path:
    """A BAMBOO folder of every subtask with the little files of tests.broken."""
    for task in ("sts", "sick", "para"):
        (folder / task).mkdir(parents=True)
        # sick and para: pair 0 is a dummy too, so the pairs are repeated
        (folder / task / "dev.y").write_text("0.9\n0.2\n0.7\n0.4\n0.6\n0.8\n")
        for subtask in ("main", "reify", "syno", "role_confusion"):
            place = folder / task / subtask
            place.mkdir()
            (place / "tgt.dev.amr").write_text(tgt + "\n" + DUMMY)
            (place / "src.dev.amr").write_text(src + "\n" + DUMMY)
    return folder
