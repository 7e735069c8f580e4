"""The VS Code extension through its npm scripts: type check, grammar tests,
unit tests of the private environment, packaging (with the amrcheck wheel),
and the end-to-end tests in the real VS Code UI (code-server + headless
Chromium, ``vscode-extension/test/e2e/run.mjs``, and ``first-run.mjs``: the
first use on a machine where no Python has amrcheck).

Skipped when npm is missing; the end-to-end test is skipped when code-server
or Chromium are not installed (``scripts/install-vscode-test.sh``). A missing
``node_modules`` is installed with ``npm ci`` (about 20 s), under a file lock
since several test runs may share the checkout.
"""

from __future__ import annotations

import fcntl
import io
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import amrcheck
from tests.conftest import REPO

EXTENSION = REPO / "vscode-extension"
NPM = shutil.which("npm")
CODE_SERVER_HOME = Path(
    os.environ.get(
        "AMRCHECK_VSCODE_TEST_HOME", Path.home() / ".cache" / "amrcheck-vscode-test"
    )
)
CODE_SERVER = CODE_SERVER_HOME / "node_modules" / ".bin" / "code-server"
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,  # every test here needs the packaged .vsix (a build)
    pytest.mark.skipif(NPM is None, reason="npm not installed (node 20 + npm needed)"),
]


def npm(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """An npm script; its Python (the wheel's build, the unit tests) is this one."""
    assert NPM is not None
    return subprocess.run(
        [NPM, *args], cwd=EXTENSION, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, "PYTHON": sys.executable},
    )


def check(result: subprocess.CompletedProcess[str]) -> str:
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    return output


@pytest.fixture(scope="module")
def built() -> Iterator[Path]:
    """node_modules (npm ci if missing) and a freshly packaged .vsix, under a lock."""
    with open(EXTENSION / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not (EXTENSION / "node_modules" / ".package-lock.json").exists():
                check(npm("ci", "--no-audit", "--no-fund"))
            check(npm("run", "package"))
            yield EXTENSION / "amrcheck-vscode.vsix"
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def test_typecheck(built: Path) -> None:
    check(npm("run", "typecheck"))


def test_grammar_covers_every_scope(built: Path) -> None:
    output = check(npm("run", "test:grammar"))
    assert "failed" not in output
    assert "grammar scopes are asserted" in output


def test_unit_tests_of_the_private_environment(built: Path) -> None:
    output = check(npm("run", "test:unit"))
    assert "# fail 0" in output and "# pass 0" not in output, output


def test_vsix_contents(built: Path) -> None:
    names = set(zipfile.ZipFile(built).namelist())
    assert "extension/dist/extension.js" in names
    assert "extension/dist/graphView.js" in names  # the graph panel's script
    assert "extension/syntaxes/amr.tmLanguage.json" in names
    assert "extension/language-configuration.json" in names
    assert not any("node_modules" in name for name in names)
    # the amrcheck wheel of this checkout, for the private environment
    wheels = [name for name in names if name.startswith("extension/bundled/")]
    wheel_name = f"amrcheck-{amrcheck.__version__}-py3-none-any.whl"
    assert wheels == [f"extension/bundled/{wheel_name}"]
    with zipfile.ZipFile(built) as vsix, vsix.open(wheels[0]) as inner:
        wheel = set(zipfile.ZipFile(io.BytesIO(inner.read())).namelist())
    assert "amr_lsp/__main__.py" in wheel and "amrcheck/__init__.py" in wheel


needs_code_server = pytest.mark.skipif(
    not CODE_SERVER.exists() or not CHROMIUM.exists(),
    reason="code-server or chromium not installed (run scripts/install-vscode-test.sh)",
)


@pytest.fixture(scope="module")
def real_vscode(built: Path) -> str:
    """One run of the end-to-end test (one code-server, about 80 s): its
    output, one ``ok   <check>`` or ``FAIL <check>`` line per check, which
    the tests below read for their part."""
    result = subprocess.run(
        ["node", "test/e2e/run.mjs", "--vsix", str(built), "--python", sys.executable],
        cwd=EXTENSION, capture_output=True, text=True, timeout=1200,
    )
    output = result.stdout + result.stderr
    if result.returncode == 3:
        pytest.skip(output.strip().splitlines()[-1])
    return output


def passed(output: str, *checks: str) -> None:
    for check in checks:
        assert any(
            line.startswith(f"ok   {check}") for line in output.splitlines()
        ), f"{check!r} did not pass:\n{output}"


def screenshot(name: str) -> None:
    assert (EXTENSION / "test-artifacts" / name).stat().st_size > 10_000, name


@pytest.mark.slow
@needs_code_server
def test_real_vscode_ui(real_vscode: str) -> None:
    """Squiggle, score lens, hover, status bar, diff report, graph view,
    missing-server notice; and no check of the run failed."""
    assert "FAIL" not in real_vscode, real_vscode
    assert "checks passed" in real_vscode, real_vscode
    screenshot("editor.png")
    screenshot("graph.png")
    passed(real_vscode,
           "graph view draws the graph under the cursor",
           "click on a node moves the cursor to its line",
           "an edit redraws the graph",
           "the view follows the cursor to the next graph")


# -- issue 22, as an annotator sees it: one test per point ---------------------


@pytest.mark.slow
@needs_code_server
def test_low_scores_warn_and_colour_the_status_bar(real_vscode: str) -> None:
    passed(real_vscode,
           "status bar: a document score below the threshold in the warning colour",
           "low-score warnings on the three graphs below 0.99",
           "... with the warning squiggle in the editor",
           "status bar: no colour above the threshold (setting changed)")
    screenshot("editor-low-scores.png")


@pytest.mark.slow
@needs_code_server
def test_problems_panel_names_the_reference_place(real_vscode: str) -> None:
    passed(real_vscode,
           "Problems panel names the reference place gold/lpp.amr:line:col")
    screenshot("editor-reference-places.png")


@pytest.mark.slow
@needs_code_server
def test_a_metric_score_text_speaks_its_own_units(real_vscode: str) -> None:
    passed(real_vscode, "rematch score text counts motifs, not triples")
    screenshot("editor-metric-units.png")


@pytest.mark.slow
@needs_code_server
def test_score_texts_repaint_without_the_lens_debounce_issue_29(
    real_vscode: str,
) -> None:
    """Each graph's score is text after its first line, not a code lens
    (VS Code repaints a lens's title 500 ms after a keystroke at the
    earliest); an edited graph's text is marked while it is re-scored,
    then replaced by the new score; below the threshold it takes the
    warning colour."""
    passed(real_vscode,
           "score text vs the reference graph",
           "one score text per visible graph",
           "... and no code lens (its title would repaint half a second late)",
           "score text says there is no reference",
           "after Compare with reference…: scores vs the chosen file",
           "score text below the threshold in the warning colour",
           "an edited graph's score text is marked as being re-scored",
           "... the other graphs' texts are not",
           "... then its new score, unmarked")
    screenshot("editor-rescoring.png")


@pytest.mark.slow
@needs_code_server
def test_key_goes_to_the_next_low_score(real_vscode: str) -> None:
    passed(real_vscode,
           "Ctrl+F8 goes to the next graph below the threshold, and wraps around",
           "Ctrl+F8 without a graph below the threshold says so")
    screenshot("editor-next-low-score.png")


@pytest.mark.slow
@needs_code_server
def test_view_lists_the_graphs_by_score(real_vscode: str) -> None:
    passed(real_vscode,
           "graphs by score: all eight, lowest first",
           "... the three below the threshold marked, with their scores",
           "a click on a graph of the view moves the cursor there",
           "graphs by score: the marks follow the threshold, the check only on "
           "identical graphs")
    screenshot("editor-graphs-by-score.png")


@pytest.mark.slow
@needs_code_server
def test_formatting_keeps_the_author_s_layout(real_vscode: str) -> None:
    passed(real_vscode,
           "Format Document keeps the author's lines and only re-indents them")
    screenshot("editor-formatting.png")


@pytest.mark.slow
@needs_code_server
def test_differences_are_grouped_per_graph(real_vscode: str) -> None:
    passed(real_vscode, "Problems panel: one diff diagnostic per differing graph")
    screenshot("editor-grouped-differences.png")


# -- issue 28: the first run on a machine without amrcheck ---------------------


@pytest.mark.slow
@needs_code_server
def test_first_run_creates_the_private_environment(built: Path) -> None:
    """No Python on PATH has amrcheck: the extension offers a private
    environment, makes it from the wheel the .vsix carries (progress shown,
    pip's log in the output channel), and the score texts come; a reload
    uses it without asking. pip gets the dependencies from the configured
    package index, through the user's pip cache."""
    result = subprocess.run(
        ["node", "test/e2e/first-run.mjs",
         "--vsix", str(built), "--python", sys.executable],
        cwd=EXTENSION, capture_output=True, text=True, timeout=1500,
    )
    output = result.stdout + result.stderr
    if result.returncode == 3:
        pytest.skip(output.strip().splitlines()[-1])
    assert result.returncode == 0 and "FAIL" not in output, output
    passed(output,
           "the Python on PATH cannot import amrcheck",
           "first use: the extension offers a private environment",
           "progress is shown while pip installs",
           "then the server runs from it: score texts",
           "the environment is in the global storage, with the bundled amrcheck",
           "pip's log is in the output channel",
           "the extension's python3 was the venv without amrcheck",
           "a new window uses the environment without asking again")
    screenshot("first-run-progress.png")
