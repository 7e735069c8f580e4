"""``AMRCHECK_PURE_PYTHON=1``: import amrcheck's ``.py`` sources even where
the compiled modules sit beside them.

Layer: the package's first import (below everything). A compiled build
(``pip install .`` with a C compiler: see ``setup.py``) puts mypyc's C
extensions next to the sources they were compiled from, and Python loads
an extension before a source file of the same name. With the variable set,
a finder placed first on ``sys.meta_path`` hands out the source files
instead: the same code run by the interpreter, to compare the two builds'
results or to debug. Unset, nothing is installed and imports are Python's.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.machinery import (
    SOURCE_SUFFIXES,
    FileFinder,
    ModuleSpec,
    SourceFileLoader,
)
from types import ModuleType

#: the environment variable that asks for the sources
VARIABLE = "AMRCHECK_PURE_PYTHON"


class SourcesFirst:
    """A meta path finder: ``amrcheck.*`` modules from their ``.py`` files."""

    @classmethod
    def find_spec(
        cls,
        name: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if not name.startswith("amrcheck.") or path is None:
            return None
        for folder in path:
            finder = FileFinder(folder, (SourceFileLoader, SOURCE_SUFFIXES))
            spec = finder.find_spec(name, target)
            if spec is not None and spec.loader is not None:
                return spec
        # not a source file (or a namespace package, such as amrcheck.data,
        # whose path Python's own finder makes): Python's finders look
        return None


def pure_python_asked() -> bool:
    return os.environ.get(VARIABLE, "") not in ("", "0")


def prefer_sources() -> None:
    """Put :class:`SourcesFirst` first on ``sys.meta_path`` (once)."""
    if SourcesFirst not in sys.meta_path:
        sys.meta_path.insert(0, SourcesFirst)


if pure_python_asked():
    prefer_sources()
