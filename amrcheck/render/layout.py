"""Graph layout by Graphviz: DOT in, SVG or PNG out.

Layer: render. The layout engine is Graphviz's ``dot`` (a system
program: Debian/Ubuntu ``apt-get install graphviz``, macOS ``brew install
graphviz``), run as a subprocess; nothing here places a node by itself.

* :func:`lay_out` lays out many graphs as SVG, a batch of graphs per
  ``dot`` process (one process start per batch, not per graph), batches
  in ``jobs`` processes at once, or draws graphs whose places are given
  (``neato -n2``);
* :func:`positions` gives the places ``dot`` chooses (its JSON), for a
  layout drawn again in parts (:mod:`amrcheck.render.union`);
* :func:`picture` draws one or several graphs as one SVG or PNG file;
  several graphs are laid out one by one and stacked into one picture by
  Graphviz's own ``gvpack`` (packing whole laid-out graphs) and ``neato
  -n2`` (drawing them at the positions given).

When ``dot`` (or ``gvpack``/``neato``) is missing, :class:`LayoutError`
says so in one line, with how to install it.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

from ..errors import AmrError
from ..execution import default_jobs

ImageFormat = Literal["svg", "png"]

INSTALL_HINT = (
    "install Graphviz: apt-get install graphviz (Debian/Ubuntu), "
    "brew install graphviz (macOS), or see https://graphviz.org/download/"
)
#: graphs per ``dot`` process: large enough that starting processes
#: costs little, small enough to keep ``jobs`` processes busy and the
#: progress bar moving
BATCH = 64

_SVG_END = "</svg>\n"
_PROLOG_RE = re.compile(r"<\?xml.*?\?>\s*|<!DOCTYPE.*?>\s*|<!--.*?-->\s*", re.DOTALL)
# a node's or edge's group and its title (graphviz writes the DOT name)
_TITLE_RE = re.compile(r'(<g id="([^"]*)" class="[^"]*">\s*<title>)[^<]*(</title>)')


class LayoutError(AmrError):
    """Graphviz is missing or failed to lay a graph out."""


def graphviz_program(name: str = "dot") -> str:
    """The absolute path of a Graphviz program, or :class:`LayoutError`.

    Only the absolute folders of ``PATH`` are searched: an empty or
    relative entry (``.``) would find a ``dot`` in the current folder,
    which for the language server is a workspace that may be a cloned
    repository.
    """
    folders = os.environ.get("PATH", os.defpath).split(os.pathsep)
    searched = os.pathsep.join(folder for folder in folders if os.path.isabs(folder))
    found = shutil.which(name, path=searched) if searched else None
    if found is None:
        raise LayoutError(f"Graphviz's {name!r} is not on PATH; {INSTALL_HINT}")
    return found


def _run(command: list[str], data: bytes) -> bytes:
    try:
        done = subprocess.run(command, input=data, capture_output=True, check=False)
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise LayoutError(f"{command[0]}: {why}; {INSTALL_HINT}") from None
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise LayoutError(
            f"{command[0]} failed (exit {done.returncode}): "
            + (reason[0] if reason else "no message")
        )
    return done.stdout


def _batched(
    sources: Sequence[str],
    command: list[str],
    split: Callable[[str], list[str]],
    jobs: int,
    progress: Callable[[int], None] | None,
) -> list[str]:
    """Run ``command`` on batches of ``sources`` (``jobs`` at once) and
    split each batch's output into one result per source, in order."""
    jobs = jobs if jobs > 0 else default_jobs()
    batches = [list(sources[i : i + BATCH]) for i in range(0, len(sources), BATCH)]

    def one(batch: list[str]) -> list[str]:
        out = split(_run(command, "".join(batch).encode("utf-8")).decode("utf-8"))
        if len(out) != len(batch):
            raise LayoutError(f"{command[0]} drew {len(out)} of {len(batch)} graphs")
        return out

    results: list[str] = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for batch, done in zip(batches, pool.map(one, batches), strict=True):
            results.extend(done)
            if progress is not None:
                progress(len(batch))
    return results


def lay_out(
    sources: Sequence[str],
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    titles: Callable[[str], str | None] | None = None,
    placed: bool = False,
) -> list[str]:
    """Lay out each DOT ``sources[i]`` and return its SVG, ready to inline.

    The SVGs have no XML prolog or comments. ``titles`` maps an element id
    (as set in the DOT) to the tooltip its ``<title>`` shows (None: keep
    Graphviz's, the DOT name). ``progress`` is called with the number of
    graphs done, from the calling thread. ``jobs`` < 1: one per CPU.
    ``placed``: every node already has its ``pos`` (and every edge its
    spline), so ``neato -n2`` only draws them there.
    """
    if placed:
        command = [graphviz_program("neato"), "-n2", "-Tsvg"]
    else:
        command = [graphviz_program("dot"), "-Tsvg"]

    def split(out: str) -> list[str]:
        return [_clean(part + _SVG_END, titles) for part in out.split(_SVG_END)[:-1]]

    return _batched(sources, command, split, jobs, progress)


def positions(sources: Sequence[str], jobs: int = 1) -> list[dict[str, Any]]:
    """Where ``dot`` places each element of each DOT source: Graphviz's
    JSON (``-Tjson0``) of each graph, with ``bb``, the ``pos``, ``width``
    and ``height`` of its nodes (``objects``) and the ``pos`` and ``lp``
    of its ``edges``."""
    command = [graphviz_program("dot"), "-Tjson0"]
    texts = _batched(sources, command, _json_documents, jobs, None)
    return [json.loads(text) for text in texts]


def _json_documents(text: str) -> list[str]:
    """The JSON documents of Graphviz's output for several graphs, in order."""
    decoder = json.JSONDecoder()
    found: list[str] = []
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return found
        _, end = decoder.raw_decode(text, at)
        found.append(text[at:end])
        at = end


def _clean(svg: str, titles: Callable[[str], str | None] | None) -> str:
    svg = _PROLOG_RE.sub("", svg)
    if titles is None:
        return svg

    def title(match: re.Match[str]) -> str:
        text = titles(html.unescape(match.group(2)))
        if text is None:
            return match.group(0)
        return f"{match.group(1)}{html.escape(text, quote=False)}{match.group(3)}"

    return _TITLE_RE.sub(title, svg)


def picture(sources: Sequence[str], fmt: ImageFormat) -> bytes:
    """One picture (SVG or PNG bytes) of one or several DOT graphs, stacked."""
    dot = graphviz_program("dot")
    if len(sources) == 1:
        return _run([dot, f"-T{fmt}"], sources[0].encode("utf-8"))
    pack, neato = graphviz_program("gvpack"), graphviz_program("neato")
    # sortv numbers the graphs: -array_u1 stacks them in one column, in
    # that order; -m24: space between them
    numbered = "".join(
        source.replace("{", f"{{sortv={k};", 1) for k, source in enumerate(sources)
    )
    positioned = _run([dot, "-Tdot"], numbered.encode("utf-8"))
    packed = _run([pack, "-array_u1", "-m24"], positioned)
    return _run([neato, "-n2", "-s", f"-T{fmt}"], packed)

