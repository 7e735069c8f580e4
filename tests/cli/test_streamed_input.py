"""Issue 20: ``check``, ``score`` and ``diff`` stream their files.

A very large regular file is read block by block, never held whole: these
commands must run with the whole-file reader made to fail. (Their memory
staying flat as files grow is measured in ``test_score.py``,
``test_diff.py`` and ``test_check.py``; a file above the whole-file limit
itself, 250 MB, is too slow to score in a test.) The Dask backend reads
inputs through the same reader.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import amrcheck.reading.files
from amrcheck.reading.corpus import read_corpus
from tests.cli.peak_memory import repeated

from ..special_files import fifo
from .test_refused_input import run


@pytest.fixture
def no_whole_file_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> bytes:
        raise AssertionError(f"a whole file was read: {args}")

    # every whole-file read (read_input_text, read_text, read_corpus) ends here
    monkeypatch.setattr(amrcheck.reading.files, "read_input", refuse)


def test_check_score_and_diff_read_no_file_whole(
    no_whole_file_reads: None, tmp_path: Path
) -> None:
    old = repeated(tmp_path / "old.amr", 3)
    new = tmp_path / "new.amr"
    new.write_text(old.read_text("utf-8").replace(" / horse", " / pony"))
    with pytest.raises(AssertionError, match="a whole file was read"):
        read_corpus(old)  # the patch is in force
    checked = run(["check", str(old)])
    assert checked.exit_code in (0, 1), checked.output
    assert "Traceback" not in checked.output
    scored = run(["score", "--jobs", "1", "-q", str(old), str(new)])
    assert scored.exit_code == 0, scored.output
    assert 0.9 < float(scored.stdout.strip()) < 1.0
    diffed = run(["diff", "--jobs", "1", "--stat", str(old), str(new)])
    assert diffed.exit_code == 1, diffed.output  # some graphs changed
    # worker processes read their shards by path, the same way
    again = run(["score", "--jobs", "2", "-q", str(old), str(new)])
    assert again.stdout == scored.stdout


@pytest.mark.slow
def test_a_dask_cluster_run_refuses_a_fifo_unread(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the dask extra")
    good = tmp_path / "good.amr"
    good.write_text("# ::id a\n(w / want-01 :ARG0 (b / boy))\n")
    with fifo(tmp_path / "pipe.amr") as pipe:
        result = run(["score", "--cluster", "local:1", "-q", str(good), str(pipe.path)])
        assert pipe.untouched()
    assert result.exit_code == 2, result.output
    assert (
        f"amrcheck score: error: {pipe.path}: not a regular file but a named pipe"
    ) in result.stderr
