"""One vocabulary for counting (issue 29): the lens, the grouped diff
diagnostic, the document score and ``amrcheck diff`` count the same
change the same way: missing, extra, relabelled, with the same totals.

The editor said "3 missing, 2 extra" where ``diff`` said ``(-1 +2 ~1)``.
Checked on real Little Prince pairs: the test pair of the editor tests,
and Little Prince graphs each compared with the next sentence's graph
(real annotations that differ much: relabels, missing and extra triples,
roots).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.conftest import REPO
from tests.lsp.shifted import LITTLE_PRINCE, shifted_pairs

from .conftest import (
    ANNOTATION,
    LSP_DATA,
    by_source,
    open_document,
    resolved_lenses,
)

COUNTS = re.compile(r"(\d+) missing, (\d+) extra, (\d+) relabelled")
GRAPHS = 30


def diff_counts(old: Path, new: Path) -> dict[str, tuple[int, int, int]]:
    """``amrcheck diff OLD NEW --json``: (missing, extra, relabelled) per graph id."""
    found = subprocess.run(
        [sys.executable, "-c", "from amrcheck.cli import main; main()",
         "diff", str(old), str(new), "--json"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert found.returncode in (0, 1), found.stderr
    return {
        graph["id"]: (
            graph["counts"]["removed"], graph["counts"]["added"],
            graph["counts"]["relabel"],
        )
        for graph in json.loads(found.stdout)["graphs"]
        if graph["status"] in ("changed", "unchanged")
    }


async def editor_counts(
    client: LanguageClient, path: Path
) -> tuple[dict[str, tuple[int, int, int]], dict[str, str], dict[str, int]]:
    """The lens counts and the grouped diagnostics' counts by graph id, and
    the document score's totals."""
    uri = await open_document(client, path)
    lens_counts = {}
    for lens in await resolved_lenses(client, uri):
        assert lens.command is not None
        title = lens.command.title
        found = COUNTS.search(title)
        assert found is not None, title
        graph = title.rsplit("#", 1)[1]
        lens_counts[graph] = (int(found[1]), int(found[2]), int(found[3]))
    diagnostics = {}
    for diagnostic in by_source(client, uri, "amrcheck-diff"):
        found = re.match(r"differs from \S+#(\S+) \((.*?)\)", diagnostic.message)
        assert found is not None, diagnostic.message
        diagnostics[found[1]] = found[2]
        # one related place per difference
        counted = COUNTS.fullmatch(found[2])
        assert counted is not None, diagnostic.message
        total = sum(int(n) for n in counted.groups())
        assert len(diagnostic.related_information or []) == total
    score = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="amrcheck.documentScore", arguments=[uri])
    )
    totals = {key: score[key] for key in ("missing", "extra", "relabelled")}
    return lens_counts, diagnostics, totals


def assert_same(
    cli: dict[str, tuple[int, int, int]],
    lenses: dict[str, tuple[int, int, int]],
    diagnostics: dict[str, str],
    totals: dict[str, int],
) -> None:
    assert lenses == cli
    for graph, (missing, extra, relabelled) in cli.items():
        words = f"{missing} missing, {extra} extra, {relabelled} relabelled"
        if missing + extra + relabelled:
            assert diagnostics[graph] == words
        else:
            assert graph not in diagnostics
    assert totals == {
        "missing": sum(c[0] for c in cli.values()),
        "extra": sum(c[1] for c in cli.values()),
        "relabelled": sum(c[2] for c in cli.values()),
    }


async def test_editor_counts_as_diff_does_on_the_test_pair(
    client: LanguageClient,
) -> None:
    cli = diff_counts(LSP_DATA / "gold" / "lpp.amr", ANNOTATION)
    # lpp_1943.2: magnificent -> beautiful is one relabelling (diff's ~1)
    assert cli["lpp_1943.2"] == (0, 0, 1)
    assert_same(cli, *await editor_counts(client, ANNOTATION))


@pytest.mark.skipif(not LITTLE_PRINCE.exists(), reason="../shared/data missing")
async def test_editor_counts_as_diff_does_on_little_prince(
    start_client, tmp_path: Path
) -> None:
    gold, annotation = shifted_pairs(tmp_path, GRAPHS)
    cli = diff_counts(gold, annotation)
    assert len(cli) == GRAPHS
    # real differences of every kind, not a trivial agreement
    assert all(sum(c[i] for c in cli.values()) > 10 for i in range(3))
    client = await start_client(
        options={"references": {"annotations/*.amr": "gold/{name}.amr"}},
        root=tmp_path,
    )
    assert_same(cli, *await editor_counts(client, annotation))
