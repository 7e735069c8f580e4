"""A UMR sentence's words and which node is aligned to which of them, as drawn.

Layer: render, on top of the UMR reader. A UMR sentence aligns each node
of its graph to word positions (``s1l: 2-2``; ``0-0``: to none; several
ranges: ``2-3, 5-5``). A report shows this on both sides of a pair:
each concept node says, under its label, the words it is aligned to (or
that it is unaligned, or that the alignment block has no line for it),
and the sentence's words stand under the drawing, each word naming the
nodes aligned to it, so that hovering one lights the other
(``static/report.js``). Nothing is guessed: a range beyond the words is
shown as written, with ``?`` for the words it does not reach.

Example:
    >>> from amrcheck.reading.umr import read_umr_string
    >>> doc = read_umr_string(
    ...     "# :: snt1\\nWords: Ceny se zvýšily .\\n\\n# sentence level graph:\\n"
    ...     "(s1z / zvýšit-se-001 :ARG1 (s1c / cena) :aspect performance)\\n\\n"
    ...     "# alignment:\\ns1z: 2-3\\ns1c: 0-0\\n\\n"
    ...     "# document level annotation:\\n(s1s0 / sentence)\\n\\n\\n")
    >>> words = aligned_words(doc.sentences[0])
    >>> words.note("s1z"), words.note("s1c"), words.note("s1x")
    ('2-3: se zvýšily', 'unaligned (0-0)', 'no alignment line')
    >>> [(w.position, w.text, w.variables) for w in words.chips()][1:3]
    [(2, 'se', ('s1z',)), (3, 'zvýšily', ('s1z',))]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..reading.corpus import Corpus
from ..reading.umr import UmrSentence, is_umr_path
from ..reading.umr_corpus import read_scored, read_umr_corpus
from .compare import Side

#: the interlinear rows whose items gloss the words one by one
_GLOSS_ROWS = ("Word Gloss", "Morpheme Gloss")


@dataclass(frozen=True, slots=True)
class WordChip:
    """One word of the sentence and the nodes aligned to it."""

    #: 1-based, as alignment ranges count
    position: int
    text: str
    #: the word's gloss (``Word Gloss (en)`` row), if the sentence has one
    gloss: str | None
    #: every variable whose alignment covers the word (in the graph or not)
    variables: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AlignedWords:
    """A sentence's words and its alignment block, as written."""

    words: tuple[str, ...]
    glosses: tuple[str, ...] = ()
    #: variable -> its 1-based word positions (empty: ``0-0``)
    positions: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    #: variable -> its ranges as written (``2-3, 5-5``), or why the line
    #: cannot be read
    written: Mapping[str, str] = field(default_factory=dict)
    #: variables whose alignment line cannot be read
    unreadable: frozenset[str] = frozenset()

    def note(self, variable: str) -> str:
        """What a node's drawing says under its label."""
        if variable in self.unreadable:
            return f"alignment unreadable: {self.written[variable]}"
        if variable not in self.written:
            return "no alignment line"
        positions, written = self.positions[variable], self.written[variable]
        if written == "0-0":
            return "unaligned (0-0)"
        return f"{written}: {self.text_of(positions) if positions else '?'}"

    def text_of(self, positions: Iterable[int]) -> str:
        return " ".join(
            self.words[p - 1] if 0 < p <= len(self.words) else "?" for p in positions
        )

    def chips(self) -> list[WordChip]:
        """Each word, with the variables aligned to it."""
        covering: dict[int, list[str]] = {}
        for variable, positions in self.positions.items():
            for position in positions:
                covering.setdefault(position, []).append(variable)
        return [
            WordChip(
                k,
                word,
                self.glosses[k - 1] if k <= len(self.glosses) else None,
                tuple(covering.get(k, ())),
            )
            for k, word in enumerate(self.words, start=1)
        ]

    @property
    def sentence(self) -> str:
        return " ".join(self.words)


def aligned_words(sentence: UmrSentence) -> AlignedWords:
    """The words and alignment block of ``sentence``."""
    words = tuple(w.text for w in sentence.words)
    glosses: tuple[str, ...] = ()
    for row in sentence.rows:
        if row.header in _GLOSS_ROWS:
            glosses = tuple(w.text for w in row.items)
            break
    positions: dict[str, tuple[int, ...]] = {}
    written: dict[str, str] = {}
    unreadable: set[str] = set()
    for line in sentence.alignments:
        if line.error is not None:
            unreadable.add(line.variable)
            written[line.variable] = line.error
            positions[line.variable] = ()
            continue
        written[line.variable] = ", ".join(f"{a}-{b}" for a, b in line.ranges)
        positions[line.variable] = tuple(
            p for a, b in line.ranges if a > 0 for p in range(a, b + 1)
        )
    return AlignedWords(words, glosses, positions, written, frozenset(unreadable))


#: a file's words by sentence (its entries' ``index``); empty for AMR files
WordTable = Mapping[int, AlignedWords]


def read_with_words(path: str | Path) -> tuple[Corpus, WordTable]:
    """The corpus a file is scored as, and (UMR files) each sentence's words.

    Raises:
        InputError: the file is missing, unreadable or not UTF-8.
    """
    if not is_umr_path(path):
        return read_scored(path), {}
    corpus, document = read_umr_corpus(path)
    return corpus, {s.index: aligned_words(s) for s in document.sentences}


def mark_words(side: Side, words: AlignedWords | None) -> None:
    """Each concept node of ``side`` notes its aligned words."""
    if words is None:
        return
    for node in side.scene.nodes:
        if node.variable is not None:
            side.notes[node.key] = words.note(node.variable)


def alignment_differences(
    links: Iterable[tuple[str, str]],
    reference: AlignedWords | None,
    candidate: AlignedWords | None,
) -> list[str]:
    """How the words and the alignments of two sentences differ, one line
    each: the words, then each aligned pair of nodes (``links``:
    candidate, reference variable) whose alignments differ in the words
    they name. Empty when they agree, or when either side is not UMR."""
    if reference is None or candidate is None:
        return []
    found = []
    if reference.words != candidate.words:
        found.append(
            f"the words differ: reference “{reference.sentence}”, "
            f"candidate “{candidate.sentence}”"
        )
    for cand, ref in links:
        before, after = reference.note(ref), candidate.note(cand)
        if before != after:
            name = ref if ref == cand else f"{ref} (candidate {cand})"
            found.append(f"alignment of {name}: {before} → {after}")
    return found
