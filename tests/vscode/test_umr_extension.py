"""UMR in the real VS Code UI (issue 30): ``vscode-extension/test/e2e/umr.mjs``
in code-server opens a file of the UMR 3.0 English release and checks the
language, squiggles, the problem count, hovers and the outline."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.vscode.test_extension import (
    EXTENSION,
    built,
    needs_code_server,
    pytestmark,
    screenshot,
)

__all__ = ["built", "pytestmark"]


@pytest.mark.slow
@needs_code_server
def test_real_vscode_opens_a_umr_file(built: Path) -> None:
    result = subprocess.run(
        ["node", "test/e2e/umr.mjs", "--vsix", str(built), "--python", sys.executable],
        cwd=EXTENSION, capture_output=True, text=True, timeout=1200,
    )
    output = result.stdout + result.stderr
    if result.returncode == 3:
        pytest.skip(output.strip().splitlines()[-1])
    assert result.returncode == 0, output
    for check in (
        "a .umr file is in the UMR language",
        "UMR findings are squiggled",
        "the status bar counts the problems",
        "hover on a variable shows its words and document-level relations",
        "hover on a word shows its nodes",
        "the outline lists the sentences",
        "score text per sentence vs the reference UMR file",
    ):
        assert f"ok   {check}" in output, output
    screenshot("umr.png")
