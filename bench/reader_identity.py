"""Bench (not a test): everything the AMR reader returns, written out, to
compare two builds of it byte for byte.

Run it once with each reader on the path and ``cmp`` the two outputs:

    PYTHONPATH=/work/main python bench/reader_identity.py --out /tmp/old.txt
    PYTHONPATH=$PWD python bench/reader_identity.py --out /tmp/new.txt
    cmp /tmp/old.txt /tmp/new.txt

What is written, for every ``.amr``/``.txt`` file under ``../shared/data``
and ``tests/data`` (read whole, and a region of it cut at a line start and
at any offset), for seeded random edits of their graphs (blank and
white-space lines, stray and missing parentheses, quotes, comments,
alignments, escapes, carriage returns, other white space), for the same
files read in 4 KiB chunks (where the streaming reader cuts), and for every
UMR file (read by the UMR reader, which reads its graph blocks with the
AMR reader): each entry's places, metadata and their places, comment
places, errors with file:line:col, and its graph's top, triples, kinds,
offsets, places and alignments; the errors that belong to no entry.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from amrcheck.errors import InputError
from amrcheck.findings import Finding
from amrcheck.graph import Graph
from amrcheck.reading._parse import Entry, parse_source
from amrcheck.reading.corpus import read_chunks, read_text
from amrcheck.reading.umr import is_umr_path, read_umr
from amrcheck.span import SourceText

REPO = Path(__file__).resolve().parents[1]
ROOTS = (REPO.parent / "shared" / "data", REPO / "tests" / "data")
#: what a random edit inserts (the reader's every branch: blank lines of
#: other white space, parens, strings, comments, metadata, alignments)
INSERTS = (
    "\n",
    "\n\n",
    "  \n",
    "\t\n",
    "\u00a0\n",
    "\n \u2003\n",
    "\r",
    " ",
    "(",
    ")",
    ":",
    "/",
    '"',
    '"a b"',
    "#",
    "\n# ::id x\n",
    "\n#c\n",
    "~e.1",
    "~",
    "\\",
    "\n(",
    "\n)",
    ":ARG0",
    "(z / zz)",
    ":instance",
    "\u3000",
    "\x0c",
    "\n   \n",
)


def _finding(finding: Finding) -> str:
    related = [(str(r.span), r.message) for r in finding.related]
    return repr(
        (
            str(finding.span),
            finding.span.end,
            finding.code,
            finding.message,
            finding.severity,
            related,
        )
    )


def _graph(graph: Graph | None) -> str:
    if graph is None:
        return "None"
    return repr(
        (
            graph.top,
            graph.triples,
            list(map(int, graph.kinds)),
            graph.offsets,
            graph.start,
            graph.end,
            sorted(graph.alignments.items()),
        )
    )


def _entries(
    out: TextIO, label: str, entries: list[Entry], orphans: list[Finding]
) -> None:
    out.write(f"== {label}: {len(entries)} entries\n")
    for entry in entries:
        out.write(
            repr(
                (
                    entry.index,
                    entry.start,
                    entry.end,
                    entry.graph_start,
                    entry.metadata,
                    entry.metadata_offsets,
                    entry.comments,
                )
            )
        )
        out.write("\n")
        for finding in entry.errors:
            out.write(f"  E {_finding(finding)}\n")
        out.write(f"  G {_graph(entry.graph)}\n")
    for finding in orphans:
        out.write(f"  O {_finding(finding)}\n")


def _read(
    out: TextIO, label: str, text: str, start: int = 0, end: int | None = None
) -> None:
    source = SourceText(text, label)
    _entries(out, f"{label} [{start}:{end}]", *parse_source(source, start, end))


def _chunks(out: TextIO, name: str, path: Path) -> None:
    """The file read in 4 KiB chunks, as the scorer's streaming reader reads it."""
    try:
        for chunk in read_chunks(path, chunk_bytes=4096):
            corpus = chunk.corpus
            label = f"{name} chunk at byte {chunk.byte_offset}"
            _entries(out, label, corpus.entries, corpus.findings)
    except InputError as error:
        out.write(f"== {name} in chunks: {error}\n")


def _edited(text: str, rng: random.Random, edits: int) -> str:
    chars = list(text)
    for _ in range(edits):
        at = rng.randrange(len(chars) + 1)
        if chars and rng.random() < 0.3:
            del chars[min(at, len(chars) - 1)]
        else:
            chars.insert(at, rng.choice(INSERTS))
    return "".join(chars)


def _files() -> Iterable[tuple[str, Path]]:
    for root in ROOTS:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            yield f"{root.name}/{path.relative_to(root)}", path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--edits", type=int, default=3000, help="randomly edited graph texts (seeded)"
    )
    args = parser.parse_args()
    rng = random.Random(20261127)
    samples: list[str] = []
    with args.out.open("w", encoding="utf-8") as out:
        for name, path in _files():
            if is_umr_path(path):
                document = read_umr(path)
                out.write(f"== UMR {name}: {len(document.sentences)}\n")
                for sentence in document.sentences:
                    out.write(repr((sentence.index, sentence.start, sentence.end)))
                    out.write(f"\n  G {_graph(sentence.graph)}\n")
                    for finding in sentence.errors:
                        out.write(f"  E {_finding(finding)}\n")
                continue
            if path.suffix not in (".amr", ".txt"):
                continue
            try:
                text = read_text(path)
            except InputError as error:  # not UTF-8: the reader never sees it
                out.write(f"== {name}: {error}\n")
                continue
            _read(out, name, text)
            _chunks(out, name, path)
            if text:
                middle = text.rfind("\n", 0, len(text) // 3) + 1
                _read(out, name, text, middle, rng.randrange(middle, len(text) + 1))
                for _ in range(5):
                    at = rng.randrange(len(text))
                    samples.append(text[at : at + rng.randrange(50, 2000)])
        for number in range(args.edits):
            text = _edited(rng.choice(samples), rng, rng.randrange(1, 6))
            _read(out, f"edit-{number}", text)


if __name__ == "__main__":
    main()
