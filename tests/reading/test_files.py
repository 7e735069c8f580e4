"""Opening input files safely (issue 20): regular files, bounded, never blocking."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from amrcheck import (
    InputError,
    InputTooLargeError,
    RefusedInputError,
    read_corpus,
    validate,
)
from amrcheck.reading import files
from amrcheck.reading.corpus import (
    count_graph_lines,
    read_chunks,
    read_errors,
    split_file,
)
from amrcheck.reading.files import open_input, read_input
from amrcheck.validation.filecheck import check_file

from ..special_files import fifo, sparse_file, unix_socket, within_deadline

GRAPH = "# ::id a\n(w / want-01 :ARG0 (b / boy))\n"
#: every reader of the engine that opens a file by its path
READERS = {
    "read_input": read_input,
    "read_corpus": read_corpus,
    "read_chunks": lambda path: list(read_chunks(path)),
    "read_errors": read_errors,
    "count_graph_lines": count_graph_lines,
    "split_file": lambda path: split_file(path, [0, 1]),
}


@pytest.mark.parametrize("reader", READERS.values(), ids=READERS)
def test_a_fifo_is_refused_without_being_opened_or_read(
    tmp_path: Path, reader
) -> None:
    with fifo(tmp_path / "pipe.amr") as pipe:
        with pytest.raises(RefusedInputError) as caught:
            within_deadline(lambda: reader(pipe.path))
        assert str(caught.value) == (
            f"{pipe.path}: not a regular file but a named pipe (FIFO); "
            "amrcheck reads regular files only"
        )
        assert pipe.untouched()


@pytest.mark.parametrize(
    ("path", "kind"),
    [("/dev/zero", "a character device"), ("/dev/null", "a character device")],
)
def test_devices_are_refused(path: str, kind: str) -> None:
    with pytest.raises(RefusedInputError, match=f"not a regular file but {kind}"):
        within_deadline(lambda: read_corpus(path))
    with pytest.raises(RefusedInputError):
        within_deadline(lambda: list(read_chunks(path)))


def test_directories_and_sockets_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RefusedInputError, match="but a directory"):
        read_corpus(tmp_path)
    with unix_socket() as path, pytest.raises(RefusedInputError, match="but a socket"):
        list(read_chunks(path))


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
@pytest.mark.parametrize(
    "reader", [r for n, r in READERS.items() if n != "split_file"],
    ids=[n for n in READERS if n != "split_file"],
)
def test_a_proc_file_is_refused_as_endless(reader) -> None:
    # /proc files are regular, report a size of 0 and have content
    with pytest.raises(RefusedInputError, match="reports a size of 0 but has content"):
        within_deadline(lambda: reader("/proc/self/environ"))
    # split_file reads nothing of a file of size 0 (no parts: it is read whole)
    assert split_file("/proc/self/environ", [0, 1]) is None


def test_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "a.amr"
    path.write_text(GRAPH)
    size = path.stat().st_size
    assert len(read_corpus(path, max_bytes=size)) == 1
    with pytest.raises(InputTooLargeError) as caught:
        read_corpus(path, max_bytes=size - 1)
    assert str(caught.value) == f"{path}: {size} bytes, more than the {size - 1} " \
        "bytes limit"


def test_whole_file_readers_refuse_files_over_the_held_limit(tmp_path: Path) -> None:
    # sparse: no disk used, and refused from its size before any byte is read
    big = sparse_file(tmp_path / "big.amr", files.MAX_HELD_BYTES + 1)
    assert files.MAX_HELD_BYTES == 250_000_000
    limit = "250,000,001 bytes, more than the 250,000,000 bytes limit"
    with pytest.raises(InputTooLargeError, match=limit):
        read_corpus(big)


def test_a_block_without_blank_lines_is_held_up_to_a_limit(tmp_path: Path) -> None:
    path = tmp_path / "one-block.amr"
    path.write_text("\n# ::id x\n" + "(a / b)\n" * 2000)
    assert len(list(read_chunks(path, chunk_bytes=1024))) == 1
    with pytest.raises(InputTooLargeError) as caught:
        list(read_chunks(path, chunk_bytes=1024, max_block=4000))
    assert str(caught.value).startswith(
        f"{path}: 1:1: no blank line between graphs in the 4,096 bytes from here, "
        "more than the 4,000 bytes held at once"
    )


def test_a_file_that_grows_while_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "log.amr"
    path.write_text(GRAPH)
    with open_input(path) as handle:
        with path.open("a") as writer:
            writer.write("\n(x / y)\n")
        with pytest.raises(RefusedInputError, match=r"grew past its size when opened"):
            handle.read()


def test_a_file_swapped_for_a_fifo_after_the_check_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The path is checked, then replaced by a FIFO that has no writer before
    # it is opened: a blocking open would wait forever; O_NONBLOCK returns at
    # once and fstat catches the swap.
    path = tmp_path / "a.amr"
    path.write_text(GRAPH)
    os.mkfifo(tmp_path / "pipe")
    checked = files._stat

    def stat_then_swap(name: str) -> os.stat_result:
        status = checked(name)
        os.replace(tmp_path / "pipe", path)
        return status

    monkeypatch.setattr(files, "_stat", stat_then_swap)
    with pytest.raises(RefusedInputError, match="replaced while being opened"):
        within_deadline(lambda: open_input(path), seconds=10)


def test_standard_input_is_not_read() -> None:
    with pytest.raises(InputError, match=r"^-: No such file or directory \(standard"):
        read_corpus("-")


def test_a_regular_file_reads_as_before(tmp_path: Path) -> None:
    path = tmp_path / "a.amr"
    path.write_bytes(b"\xef\xbb\xbf" + GRAPH.encode())
    with open_input(path) as handle:
        assert handle.read(3) == b"\xef\xbb\xbf"
        handle.seek(5)
        assert handle.read(6) == b"::id a"
        assert handle.read() == GRAPH.encode()[8:]
        assert handle.read() == b""
    assert read_corpus(path)[0].id == "a"


def test_check_streams_a_file_and_keeps_findings_small(tmp_path: Path) -> None:
    # ids repeat across chunks (E105 spans chunks); graphs lack ids (W101)
    blocks = [f"# ::id g{i % 300}\n(w / want-01 :ARG0 (b / boy))" for i in range(600)]
    blocks += ["(n / no-id)"] * 50
    path = tmp_path / "many.amr"
    path.write_text("\n\n".join(blocks) + "\n")
    assert len(list(read_chunks(path))) > 1
    result = check_file(path, [], [])
    whole = read_corpus(path)
    expected = [str(f) for f in validate(whole)]
    assert [str(f) for f in result.findings] == expected
    assert sum(f.code == "E105" for f in result.findings) == 300
    assert result.graphs == len(whole) == 650
    # each finding keeps its own line, not its chunk of the file
    assert max(len(f.span.source.text) for f in result.findings) < 100
    assert result.findings[0].to_dict() == validate(whole)[0].to_dict()
