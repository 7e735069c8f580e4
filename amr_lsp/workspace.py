"""What the server may read from disk: its workspace policy (issue 20).

The server reads the documents the client sends (never from disk), the
files inside the workspace folders, and the reference files the user
named in settings (``references``, which may point anywhere). A
``# ::reference`` header is text of the document, which may come from a
cloned repository, so it may name only a file inside the workspace
folders (after symlinks are resolved) or under one of the
``allowedReferencePaths``; anything else is refused before it is even
looked at, with a message saying how to allow it. Without a workspace
folder the document's own folder stands in for it.

Which files are read at all (regular files, within the size limit,
never blocking) is the engine's policy, :mod:`amrcheck.reading.files`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .config import Settings

#: the setting that allows header references outside the workspace
ALLOW_SETTING = "amrcheck.allowedReferencePaths"
#: the setting of the size limit
SIZE_SETTING = "amrcheck.maxReferenceMegabytes"


@dataclass(frozen=True, slots=True)
class ReadPolicy:
    """Where header references may point, and how large a reference may be.

    Example:
        >>> policy = ReadPolicy(folders=(Path("/w"),), allowed=(Path("/gold"),))
        >>> policy.header_refusal(Path("/w/gold/a.amr"), Path("/w/a.amr"))
        >>> policy.header_refusal(Path("/gold/x/a.amr"), Path("/w/a.amr"))
        >>> print(policy.header_refusal(Path("/etc/passwd"), Path("/w/a.amr")))
        reference file /etc/passwd is outside the workspace folders, so it is \
not read; to compare with it, add /etc (or the file) to the \
amrcheck.allowedReferencePaths setting
    """

    #: the workspace folders, symlinks resolved (empty: none is open)
    folders: tuple[Path, ...] = ()
    #: files or folders outside them that header references may name
    allowed: tuple[Path, ...] = ()
    #: references larger than this many bytes are not read
    max_bytes: int = Settings().max_reference_megabytes * 1_000_000

    @classmethod
    def build(cls, folders: Iterable[Path], settings: Settings) -> ReadPolicy:
        """The policy for these workspace folders and settings."""
        return cls(
            folders=tuple(dict.fromkeys(_real(folder) for folder in folders)),
            allowed=tuple(
                _real(Path(path).expanduser())
                for path in settings.allowed_reference_paths
            ),
            max_bytes=settings.max_reference_megabytes * 1_000_000,
        )

    def header_refusal(
        self, path: Path, document: Path | None, written: Path | None = None
    ) -> str | None:
        """Why a header may not name ``path`` (resolved), or None if it may.

        ``written`` is the path as written (made absolute, symlinks not
        resolved), for the message when a symlink leads out.
        """
        roots = self.folders or (
            (_real(document.parent),) if document is not None else ()
        )
        if any(path.is_relative_to(root) for root in (*roots, *self.allowed)):
            return None
        where = (
            "the workspace folders" if self.folders
            else "the document's folder (no workspace folder is open)"
        )
        named = f"reference file {path}"
        if written is not None and written != path:
            named = f"reference file {written}, a symbolic link to {path},"
        return (
            f"{named} is outside {where}, so it is not read; to compare with "
            f"it, add {path.parent} (or the file) to the {ALLOW_SETTING} setting"
        )


def _real(path: Path) -> Path:
    """``path`` absolute, with ``..`` and symlinks resolved (it need not exist)."""
    return Path(os.path.realpath(path))
