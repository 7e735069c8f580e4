"""Similar annotations: precedents of the graph under the cursor, from an index.

Translates only: the index (``amrcheck.similar.index``, made by
``amrcheck index``) is loaded once per file version and asked for the
graphs most similar to the one under the cursor
(:meth:`amrcheck.search.Index.search`); each precedent becomes a
Markdown line with its score, ``::id``, sentence and a ``file:`` link
to its line. The graph itself is left out when its file is indexed.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from amrcheck import Graph
from amrcheck.search import Hit, Index

from .config import Similar
from .convert import path_to_uri

#: characters of a precedent's sentence shown in a hover
SENTENCE_CHARS = 90


class Precedents:
    """The configured index, loaded on first use and again when its file changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded: tuple[Path, int, Index] | None = None

    def index(self, path: Path) -> Index:
        """The index at ``path``.

        Raises:
            IndexFileError: missing, unreadable, another amrcheck version.
        """
        try:
            stamp = path.stat().st_mtime_ns
        except OSError:
            stamp = -1  # Index.load says what is wrong
        with self._lock:
            if self._loaded is None or self._loaded[:2] != (path, stamp):
                self._loaded = (path, stamp, Index.load(path))
            return self._loaded[2]

    def find(
        self, settings: Similar, root: Path | None, graph: Graph, place: tuple[str, int]
    ) -> tuple[Index, list[Hit]]:
        """The index and the ``settings.top`` precedents of ``graph``, which
        is at ``place`` (its file and first line: left out of the hits)."""
        path = Path(settings.index).expanduser()
        if not path.is_absolute() and root is not None:
            path = root / path
        index = self.index(path)
        return index, index.search(graph, settings.top, exclude=place)


def similar_markdown(index: Index, hits: list[Hit]) -> str:
    """The hover section listing ``hits``, best first."""
    if not hits:
        return f"**Similar annotations** ({index.metric}): none in the index"
    lines = [f"**Similar annotations** ({index.metric}, {len(index)} indexed)", ""]
    for hit in hits:
        graph = hit.graph
        link = f"{path_to_uri(graph.path)}#L{graph.line}"
        name = graph.id or f"{Path(graph.path).name}:{graph.line}"
        snt = graph.snt or ""
        if len(snt) > SENTENCE_CHARS:
            snt = snt[: SENTENCE_CHARS - 1] + "…"
        said = f" — {_escape(snt)}" if snt else ""
        lines.append(f"- `{hit.score:.3f}` [{_escape(name)}]({link}){said}")
    return "\n".join(lines)


def similar_payload(hits: list[Hit]) -> list[dict[str, Any]]:
    """The hits as JSON for the ``amrcheck.similarAnnotations`` command."""
    return [
        {
            "score": hit.score,
            "uri": path_to_uri(hit.graph.path),
            "line": hit.graph.line - 1,  # LSP lines are 0-based
            "id": hit.graph.id,
            "snt": hit.graph.snt,
        }
        for hit in hits
    ]


def _escape(text: str) -> str:
    return "".join("\\" + c if c in "\\`*_[]<>" else c for c in text)
