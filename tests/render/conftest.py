"""Shared by the drawing tests: the fixture files and the Graphviz marker."""

from __future__ import annotations

import html
import re
import shutil

import pytest

from amrcheck import Corpus, read_corpus
from amrcheck.render import expanded
from tests.conftest import REPO, data_path

#: Graphviz lays the graphs out; scripts/install-test-tools.sh installs it
needs_dot = pytest.mark.skipif(
    shutil.which("dot") is None,
    reason="Graphviz dot not installed (run scripts/install-test-tools.sh)",
)

V1 = REPO / "examples" / "annotations_v1.amr"
V2 = REPO / "examples" / "annotations_v2.amr"
ODD = data_path("render/odd.amr")
GOLD = data_path("lsp/gold/lpp.amr")
ANNOTATION = data_path("lsp/annotations/lpp.amr")


@pytest.fixture(scope="session")
def odd() -> Corpus:
    return read_corpus(ODD)


@pytest.fixture(scope="session")
def versions() -> tuple[Corpus, Corpus]:
    return read_corpus(V1), read_corpus(V2)


def page_text(page: str) -> str:
    """What a report shows as text, every section's body inflated."""
    return html.unescape(re.sub(r"<[^>]+>", "", expanded(page)))
