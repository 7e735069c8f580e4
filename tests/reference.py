"""Reference scores of the published implementations on BAMBOO dev.

See ../shared/data/reference_scores/bamboo_dev/SUMMARY.md for the columns.
BAMBOO argument order: candidate = tgt.dev.amr, reference = src.dev.amr.
"""

from __future__ import annotations

import csv
from pathlib import Path

from .conftest import SHARED_DATA

TASKS = ("sts", "sick", "para")
SUBTASKS = ("main", "reify", "syno", "role_confusion")
SUBTASK_IDS = [f"{t}.{s}" for t in TASKS for s in SUBTASKS]


def bamboo_files(subtask_id: str) -> tuple[Path, Path]:
    """(tgt, src) files of a subtask such as ``"sts.main"``."""
    task, subtask = subtask_id.split(".")
    folder = SHARED_DATA / "bamboo" / task / subtask
    return folder / "tgt.dev.amr", folder / "src.dev.amr"


def reference_rows(subtask_id: str) -> list[dict[str, str]]:
    """The per-pair reference rows of a subtask, in pair order."""
    path = SHARED_DATA / "reference_scores" / "bamboo_dev" / f"{subtask_id}.tsv"
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))
