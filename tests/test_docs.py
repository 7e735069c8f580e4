"""Every runnable snippet of README.md and docs/*.md runs as written.

The convention, for anyone who writes docs here:

* A fenced block whose info string is ```` ```bash runnable ```` runs with
  ``bash -e`` from the repository root; ```` ```python runnable ```` runs
  as a Python script (a subprocess) from the repository root — or, when
  it is written as a doctest (its first line starts with ``>>>``), as a
  doctest with ``ELLIPSIS``.
* ``exit=N`` after ``runnable`` (```` ```bash runnable exit=1 ````) is the
  exit status it must end with (default 0), for commands such as
  ``amrcheck diff`` whose status says something.
* A ```` ```text output ```` block right after a runnable one (nothing but
  blank lines between) is what it must print on stdout.
  Compared after these normalisations: trailing spaces of every line and
  blank lines at the start and end are dropped; a line that is only
  ``...`` stands for any number of lines (none included); ``...`` inside
  a line stands for any text on that line (times, paths).
* Snippets run with this Python's console scripts first on ``PATH`` and
  this checkout first on ``PYTHONPATH``. They may read ``examples/`` and
  ``../shared/data`` and must write only under ``/tmp``.
* A snippet that cannot run here (it installs software, starts a server,
  needs a remote cluster or files of the reader's own) is left unmarked,
  and the text around it says what it needs.

The ``.pre-commit-config.yaml`` examples run with real pre-commit in
``tests/hooks/test_documented_hooks.py``; the ``.amrcheck.toml`` examples
are loaded in ``tests/hooks/test_manifest.py``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
_FENCE = re.compile(r"^```(\S*)[ \t]*(.*)$")
#: longest a snippet may run, for busy machines only
TIMEOUT_S = 600


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is, its info string, its text."""

    path: Path
    line: int  # of the opening fence, 1-based
    language: str
    words: tuple[str, ...]
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"

    @property
    def runnable(self) -> bool:
        return bool(self.words) and self.words[0] == "runnable"


def blocks_of(path: Path) -> list[tuple[Block, bool]]:
    """The fenced blocks of a Markdown file, each with whether only blank
    lines stand between it and the block before."""
    found: list[tuple[Block, bool]] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    number, after_block = 0, False
    while number < len(lines):
        opening = _FENCE.match(lines[number])
        if opening is None:
            if lines[number].strip():
                after_block = False
            number += 1
            continue
        end = number + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        assert end < len(lines), f"{path}:{number + 1}: unclosed fence"
        language, info = opening.groups()
        block = Block(
            path, number + 1, language, tuple(info.split()),
            "\n".join(lines[number + 1 : end]) + "\n",
        )
        found.append((block, after_block))
        after_block = True
        number = end + 1
    return found


def snippets() -> list[tuple[Block, Block | None]]:
    """Every runnable block, with the output block that follows it, if any."""
    pairs: list[tuple[Block, Block | None]] = []
    for path in DOCS:
        found = blocks_of(path)
        for index, (block, _) in enumerate(found):
            if not block.runnable:
                continue
            following = found[index + 1] if index + 1 < len(found) else None
            output = None
            if following is not None and following[1] and _is_output(following[0]):
                output = following[0]
            pairs.append((block, output))
    return pairs


def _is_output(block: Block) -> bool:
    return block.language == "text" and block.words == ("output",)


def _expected_exit(block: Block) -> int:
    for word in block.words[1:]:
        key, _, value = word.partition("=")
        assert key == "exit" and value.isdigit(), (
            f"{block.where}: unknown word {word!r} after runnable (exit=N only)"
        )
        return int(value)
    return 0


def matches(expected: str, actual: str) -> bool:
    """Whether ``actual`` is what ``expected`` shows, after the normalisations
    of the module docstring.

    >>> matches("a\\n...\\nz", "a\\nb\\nc\\nz\\n")
    True
    >>> matches("took ... s", "took 1.5 s")
    True
    >>> matches("a\\nz", "a\\nb\\nz")
    False
    """

    def lines(text: str) -> list[str]:
        return "\n".join(line.rstrip() for line in text.splitlines()).strip(
            "\n"
        ).split("\n")

    pattern = ""
    for line in lines(expected):
        if line.strip() == "...":
            pattern += r"(?:[^\n]*\n)*?"
        else:
            pattern += ".*".join(re.escape(part) for part in line.split("...")) + "\n"
    return re.fullmatch(pattern, "\n".join(lines(actual)) + "\n") is not None


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env["PATH"]])
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(REPO), env.get("PYTHONPATH", "")])
    )
    env["COLUMNS"] = "100"  # help and tables as wide as the docs show them
    return env


def _command(block: Block) -> tuple[list[str], str | None]:
    """What runs the block, and what it reads on stdin."""
    if block.language == "bash":
        return ["bash", "-e", "-c", block.text], None
    assert block.language == "python", f"{block.where}: runnable {block.language}?"
    if block.text.lstrip().startswith(">>>"):
        script = (
            "import doctest, sys\n"
            "parser = doctest.DocTestParser()\n"
            "test = parser.get_doctest(sys.stdin.read(), {}, 'snippet', None, 0)\n"
            "runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)\n"
            "runner.run(test)\n"
            "sys.exit(1 if runner.failures or not runner.tries else 0)\n"
        )
        return [sys.executable, "-c", script], block.text
    return [sys.executable, "-c", block.text], None


SNIPPETS = snippets()


@pytest.mark.parametrize(
    ("block", "output"), SNIPPETS, ids=[block.where for block, _ in SNIPPETS]
)
def test_snippet_runs_as_written(block: Block, output: Block | None) -> None:
    command, stdin = _command(block)
    done = subprocess.run(
        command, cwd=REPO, env=_environment(), capture_output=True, text=True,
        input=stdin or "", timeout=TIMEOUT_S,
    )
    shown = f"{block.where}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
    assert done.returncode == _expected_exit(block), shown
    if output is not None:
        assert matches(output.text, done.stdout), f"expected:\n{output.text}\n{shown}"


def test_the_docs_have_runnable_snippets_and_no_stray_output_blocks() -> None:
    """Every ``text output`` block follows a runnable one; the python and
    bash examples that the docs mark are there."""
    assert len(SNIPPETS) >= 5
    for path in DOCS:
        found = blocks_of(path)
        for index, (block, after_block) in enumerate(found):
            if _is_output(block):
                before = found[index - 1][0] if index else None
                assert after_block and before is not None and before.runnable, (
                    f"{block.where}: an output block must follow a runnable block"
                )
            if block.runnable:
                assert block.language in ("bash", "python"), block.where
                _expected_exit(block)
