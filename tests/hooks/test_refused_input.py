"""Issue 20: the hooks refuse what is not a regular AMR file, with exit 2.

A repository may hold (or a commit may add) a FIFO, a symlink to a
device or a ``/proc`` file under an ``.amr`` name, or a FIFO for its
configuration: every hook stops at once with exit status 2 and a line
naming the file and why, and reads nothing of it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from amrcheck.hooks import check, iaa, regress

from ..special_files import fifo, within_deadline

Hook = Callable[[Sequence[str] | None], int]
NOT_REGULAR = "not a regular file but"


def test_amr_check_refuses_a_fifo_and_a_device(annotation_repo: Path, capsys) -> None:
    os.symlink("/dev/zero", annotation_repo / "zero.amr")
    with fifo(annotation_repo / "pipe.amr") as pipe:
        retval = within_deadline(
            lambda: check.main(["pipe.amr", "zero.amr", "gold/ch1.amr"])
        )
        assert pipe.untouched()
    assert retval == 2
    out = capsys.readouterr().out
    assert f"amr-check: cannot read pipe.amr: {NOT_REGULAR} a named pipe (FIFO)" in out
    assert f"amr-check: cannot read zero.amr: {NOT_REGULAR} a character device" in out
    assert "(3 files, 5 graphs; 2 unreadable)" in out  # the good file is checked


@pytest.mark.parametrize(
    ("hook", "name", "target", "message"),
    [
        (regress.main, "amr-regress", "parser/ch1.amr",
         f"parser/ch1.amr: {NOT_REGULAR} a named pipe (FIFO)"),
        # the reference the configuration names for parser/ch1.amr
        (regress.main, "amr-regress", "gold/ch1.amr",
         f"gold/ch1.amr: {NOT_REGULAR} a named pipe (FIFO)"),
        (iaa.main, "amr-iaa", "annotator2/toy.amr",
         f"annotator2/toy.amr: {NOT_REGULAR} a named pipe (FIFO)"),
    ],
)
def test_gates_stop_at_a_fifo(
    annotation_repo: Path, capsys, hook: Hook, name: str, target: str, message: str
) -> None:
    (annotation_repo / target).unlink()
    checked = "annotator1/toy.amr" if hook is iaa.main else "parser/ch1.amr"
    with fifo(annotation_repo / target) as pipe:
        assert within_deadline(lambda: hook([checked])) == 2
        assert pipe.untouched()
    err = capsys.readouterr().err
    assert err.startswith(f"{name}: error: ")
    assert message in err


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_amr_check_refuses_an_endless_proc_file(annotation_repo: Path, capsys) -> None:
    os.symlink("/proc/self/environ", annotation_repo / "env.amr")
    assert check.main(["env.amr"]) == 2
    assert "amr-check: cannot read env.amr: reports a size of 0 but has content" in (
        capsys.readouterr().out
    )


@pytest.mark.parametrize("hook", [check.main, regress.main, iaa.main])
def test_a_fifo_configuration_is_refused(
    annotation_repo: Path, capsys, hook: Hook
) -> None:
    with fifo(annotation_repo / "fifo.toml") as pipe:
        assert within_deadline(lambda: hook(["--config", "fifo.toml"])) == 2
        assert pipe.untouched()
    assert (
        f"error: fifo.toml: cannot read the configuration: {NOT_REGULAR} a named "
        "pipe (FIFO)"
    ) in capsys.readouterr().err
