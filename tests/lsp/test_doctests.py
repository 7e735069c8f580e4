"""Run the examples in amr_lsp's docstrings (``testpaths`` covers only amrcheck)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "config", "references", "completion", "workspace", "server", "umr_scores",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"amr_lsp.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0
