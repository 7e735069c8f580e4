"""PropBank frames: which predicate concepts exist and which ARGs each takes.

Reference data for validation (and for hovers in the language server),
read from files bundled in ``amrcheck/data`` (see its README for sources
and the CC BY-SA 4.0 license); nothing is downloaded at run time.

Two inventories are merged, because AMR corpora were annotated against
different PropBank releases:

* ``propbank_frames.json``: every roleset of the current PropBank frames
  (11,306), with names, function tags and argument descriptions;
* ``amr-frames-arg-descr.txt``: the frame list published with AMR 3.0
  (8,733 frames), 96 of which were renamed or dropped later.

A frame is known if either lists it; an argument is defined for a frame
if either lists it for that frame.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

#: ``lemma-NN``: the shape of a PropBank predicate concept
_FRAME_RE = re.compile(r"\S+-[0-9]{2}")

#: AMR writes ``-00`` for a predicate that has no PropBank frame at all
NO_FRAME_SENSE = "-00"


@dataclass(frozen=True, slots=True)
class FrameArgument:
    """One numbered argument of a frame, e.g. ``ARG0`` "wanter"."""

    label: str  # "ARG0", or "ARGM-LOC" for the few modifier roles listed
    function_tag: str  # PropBank function tag ("PAG", "PPT", ...); "" if unknown
    description: str


@dataclass(frozen=True, slots=True)
class Frame:
    """A PropBank roleset in AMR concept form (``want-01``)."""

    concept: str
    name: str  # roleset name, e.g. "desire"; "" when only the AMR list has it
    arguments: tuple[FrameArgument, ...]

    def argument(self, label: str) -> FrameArgument | None:
        """The argument called ``label`` (``"ARG1"``), if the frame has it."""
        for argument in self.arguments:
            if argument.label == label:
                return argument
        return None

    def describe(self) -> str:
        """Its arguments on one line: ``ARG0: wanter, ARG1: thing wanted``."""
        return ", ".join(f"{a.label}: {a.description}" for a in self.arguments)


def is_frame_concept(concept: str) -> bool:
    """True for concepts shaped like a PropBank predicate (``lemma-NN``).

    ``-00`` concepts are excluded: AMR uses that sense for predicates
    that have no frame.

    Example:
        >>> is_frame_concept("want-01"), is_frame_concept("boy")
        (True, False)
        >>> is_frame_concept("trypsinize-00")
        False
    """
    return _FRAME_RE.fullmatch(concept) is not None and not concept.endswith(
        NO_FRAME_SENSE
    )


def _read_data(name: str) -> str:
    return (resources.files("amrcheck") / "data" / name).read_text(encoding="utf-8")


def _parse_amr_frame_list(text: str) -> dict[str, list[tuple[str, str]]]:
    """``frame  ARG0: descr  ARG1: descr`` lines -> {frame: [(label, descr)]}."""
    frames: dict[str, list[tuple[str, str]]] = {}
    for line in text.splitlines():
        fields = line.split("  ")
        if not fields[0]:
            continue
        arguments = []
        for field in fields[1:]:
            label, _, description = field.partition(":")
            arguments.append((label.strip(), description.strip()))
        frames[fields[0]] = arguments
    return frames


class FrameInventory:
    """Frames by AMR concept; merges the PropBank and AMR 3.0 lists.

    Example:
        >>> frames = load_frames()
        >>> frames["love-01"].describe()
        'ARG0: lover, ARG1: loved'
        >>> "want-09" in frames
        False
    """

    def __init__(self, frames: dict[str, Frame]) -> None:
        self._frames = frames
        self._senses: dict[str, list[str]] | None = None

    def get(self, concept: str) -> Frame | None:
        return self._frames.get(concept)

    def __getitem__(self, concept: str) -> Frame:
        return self._frames[concept]

    def __contains__(self, concept: object) -> bool:
        return concept in self._frames

    def __len__(self) -> int:
        return len(self._frames)

    def __iter__(self) -> Iterator[str]:
        """The concepts that have a frame, in no particular order."""
        return iter(self._frames)

    def concepts(self) -> list[str]:
        """Every concept that has a frame, sorted (what completion offers).

        Example:
            >>> [c for c in load_frames().concepts() if c.startswith("love-")]
            ['love-01', 'love-02']
        """
        return sorted(self._frames)

    def senses(self, lemma: str) -> list[str]:
        """The known frames of ``lemma``, sorted.

        Example:
            >>> load_frames().senses("love")
            ['love-01', 'love-02']
        """
        if self._senses is None:
            index: dict[str, list[str]] = {}
            for concept in sorted(self._frames):
                index.setdefault(concept.rsplit("-", 1)[0], []).append(concept)
            self._senses = index
        return list(self._senses.get(lemma, ()))

    @classmethod
    def from_texts(cls, propbank_json: str, amr_frame_list: str) -> FrameInventory:
        """Build from the text of the two bundled files (see module docstring)."""
        frames: dict[str, Frame] = {}
        for concept, entry in json.loads(propbank_json).items():
            arguments = tuple(
                FrameArgument(label, tag or "", description)
                for label, tag, description in entry["roles"]
            )
            frames[concept] = Frame(concept, entry["name"], arguments)
        for concept, listed in _parse_amr_frame_list(amr_frame_list).items():
            known = frames.get(concept)
            if known is None:
                arguments = tuple(FrameArgument(lb, "", d) for lb, d in listed)
                frames[concept] = Frame(concept, "", arguments)
                continue
            # the AMR 3.0 list sometimes has an ARG the current frame lost;
            # corpora annotated against it use that ARG legitimately
            extra = tuple(
                FrameArgument(label, "", description)
                for label, description in listed
                if known.argument(label) is None
            )
            if extra:
                frames[concept] = Frame(
                    concept, known.name, known.arguments + extra
                )
        return cls(frames)


@lru_cache(maxsize=1)
def load_frames() -> FrameInventory:
    """The bundled frame inventory (read once, then cached)."""
    return FrameInventory.from_texts(
        _read_data("propbank_frames.json"), _read_data("amr-frames-arg-descr.txt")
    )
