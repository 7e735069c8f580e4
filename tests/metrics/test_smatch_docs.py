"""docs/smatch.md: the Python API example runs as written."""

from __future__ import annotations

import doctest

from tests.conftest import REPO


def test_api_example_in_docs_runs() -> None:
    result = doctest.testfile(
        str(REPO / "docs" / "smatch.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS,
    )
    assert result.attempted >= 6
    assert result.failed == 0
