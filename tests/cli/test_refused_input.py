"""Issue 20: every command refuses what is not a regular AMR file, with exit 2.

A FIFO, a device, a directory, a socket, a ``/proc`` file (size 0, maybe
endless), a file too large to hold and a file with no blank line in
250 MB: each ends the command at once with exit status 2 and one line
naming the file and why, never a hang, a traceback or a MemoryError.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

import amrcheck.cli.bench  # noqa: F401  (registers the commands on `app`)
import amrcheck.cli.check  # noqa: F401
import amrcheck.cli.diff  # noqa: F401
import amrcheck.cli.iaa  # noqa: F401
import amrcheck.cli.index  # noqa: F401
import amrcheck.cli.render  # noqa: F401
import amrcheck.cli.score  # noqa: F401
import amrcheck.cli.search  # noqa: F401
import amrcheck.cli.train  # noqa: F401
from amrcheck.cli import app
from amrcheck.metrics import get_metric
from amrcheck.reading.files import MAX_HELD_BYTES
from amrcheck.search import build_index

from ..special_files import fifo, sparse_file, unix_socket, within_deadline

runner = CliRunner()
GOOD = "# ::id a\n(w / want-01 :ARG0 (b / boy))\n"
NOT_REGULAR = "not a regular file but"

#: command line -> what the command prints before the reason
COMMANDS: dict[str, Callable[[Path, Path], list[str]]] = {
    "check": lambda good, bad: ["check", str(bad)],
    "score ref": lambda good, bad: ["score", str(bad), str(good)],
    "score cand": lambda good, bad: ["score", str(good), str(bad)],
    "score --jobs 2": lambda good, bad: ["score", "--jobs", "2", str(good), str(bad)],
    "diff": lambda good, bad: ["diff", str(good), str(bad)],
    "iaa": lambda good, bad: ["iaa", str(bad), str(good)],
    "bench principles": lambda good, bad: ["bench", "principles", str(bad)],
    "train": lambda good, bad: ["train", "wwlk", "--pairs", str(good), str(good),
                                "--scores", str(bad), "--out", str(bad) + ".json"],
    "train amrsim": lambda good, bad: ["train", "amrsim", str(bad), "--out",
                                       str(good.with_suffix(".safetensors"))],
    "render": lambda good, bad: ["render", str(bad), "-o", str(good) + ".svg"],
    "index": lambda good, bad: ["index", str(bad), "-o", str(good) + ".idx"],
    "search index": lambda good, bad: ["search", str(bad), str(good)],
    "search query": lambda good, bad: ["search", str(index_of(good)), str(bad)],
}

#: what a command says instead of the reason, for a kind of file it reads
#: otherwise: an index is a zip archive, and zipfile looks for its end
#: record by seeking (nothing is read from a file whose size is 0)
SAYS_INSTEAD = {
    ("search index", "/proc/self/environ"): "not an amrcheck index (BadZipFile: "
    "File is not a zip file)",
}


def index_of(good: Path) -> Path:
    """An index of the good file, beside it (made once)."""
    path = good.with_suffix(".idx")
    if not path.exists():
        build_index([good], get_metric("wlk")).index.save(path)
    return path


def prefix(command: str) -> str:
    """What comes before ``path: reason`` in the command's message."""
    if command == "check":
        return "amrcheck: cannot read "
    name = command.removesuffix(" ref").removesuffix(" cand").split(" --")[0]
    name = {"train amrsim": "train", "search index": "search",
            "search query": "search"}.get(name, name)
    return f"amrcheck {name}: error: "


def run(args: list[str]) -> Result:
    return within_deadline(lambda: runner.invoke(app, args))


@contextmanager
def bad_file(kind: str, folder: Path) -> Iterator[Path]:
    with ExitStack() as stack:
        if kind == "fifo":
            pipe = stack.enter_context(fifo(folder / "pipe.amr"))
            yield pipe.path
            assert pipe.untouched(), "the FIFO was read"
        elif kind == "socket":
            yield stack.enter_context(unix_socket())
        elif kind == "directory":
            yield folder
        else:
            yield Path(kind)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("fifo", f"{NOT_REGULAR} a named pipe (FIFO)"),
        ("/dev/zero", f"{NOT_REGULAR} a character device"),
        ("directory", f"{NOT_REGULAR} a directory"),
        ("socket", f"{NOT_REGULAR} a socket"),
        ("/proc/self/environ", "reports a size of 0 but has content"),
    ],
)
def test_refused_with_exit_2(
    command: str, kind: str, reason: str, tmp_path: Path
) -> None:
    if kind.startswith("/") and not Path(kind).exists():
        pytest.skip(f"{kind} does not exist here")
    if command == "train amrsim":
        pytest.importorskip("torch", reason="the learned extra")
    good = tmp_path / "good.amr"
    good.write_text(GOOD)
    reason = SAYS_INSTEAD.get((command, kind), reason)
    with bad_file(kind, tmp_path) as bad:
        result = run(COMMANDS[command](good, bad))
    assert result.exit_code == 2, result.output
    assert f"{prefix(command)}{bad}: {reason}" in result.stderr
    assert "Traceback" not in result.output


def test_standard_input_is_not_read(tmp_path: Path) -> None:
    result = run(["check", "-"])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "amrcheck: cannot read -: No such file or directory (standard input is "
        "not read: save it to a file first)"
    )


@pytest.mark.parametrize("command", ["bench principles", "train"])
def test_a_file_too_large_to_hold_is_refused_unread(
    command: str, tmp_path: Path
) -> None:
    # sparse: 250 MB of nothing on disk; refused from its size, never read
    good = tmp_path / "good.amr"
    good.write_text(GOOD)
    big = sparse_file(tmp_path / "big.amr", MAX_HELD_BYTES + 1)
    result = run(COMMANDS[command](good, big))
    assert result.exit_code == 2
    assert (
        f"{prefix(command)}{big}: 250,000,001 bytes, more than the "
        "250,000,000 bytes limit"
    ) in result.stderr


def test_streaming_commands_stop_at_a_block_too_large_to_hold(tmp_path: Path) -> None:
    # check streams files of any size, but one block (no blank line) must fit
    big = sparse_file(tmp_path / "big.amr", MAX_HELD_BYTES + 1_000_000)
    result = run(["check", str(big)])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"amrcheck: cannot read {big}: 1:1: no blank line between graphs in the "
    )
    assert "more than the 250,000,000 bytes held at once (is it an AMR file?)" in (
        result.stderr
    )
