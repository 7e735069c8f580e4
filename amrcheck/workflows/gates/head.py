"""File contents at ``HEAD``, read through one ``git cat-file --batch`` process."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from ...errors import InputError


class HeadReader:
    """File contents at ``HEAD``, through one ``git cat-file --batch`` process.

    One process for the whole run keeps a 200-file commit fast; it starts
    on first use; :meth:`close` ends it (``contextlib.closing``).
    """

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._top: Path | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            try:
                top = subprocess.run(
                    ["git", "rev-parse", "--show-toplevel"],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout.strip()
            except (OSError, subprocess.CalledProcessError) as exc:
                stderr = getattr(exc, "stderr", None) or str(exc)
                raise InputError(
                    f"comparing with HEAD needs a git repository: {stderr.strip()}"
                ) from None
            self._top = Path(top)
            self._process = subprocess.Popen(
                ["git", "cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                cwd=top,
            )
        return self._process

    def read(self, path: str) -> str | None:
        """The text of ``path`` at ``HEAD``; None if it is new (or no commit yet)."""
        process = self._start()
        assert process.stdin is not None and process.stdout is not None
        assert self._top is not None
        name = Path(os.path.relpath(os.path.abspath(path), self._top)).as_posix()
        process.stdin.write(f"HEAD:{name}\n".encode())
        process.stdin.flush()
        header = process.stdout.readline().decode().split()
        if len(header) != 3 or header[1] != "blob":
            return None  # "<name> missing": a new file, or no HEAD commit yet
        data = process.stdout.read(int(header[2]))
        process.stdout.read(1)  # the newline after each object
        return data.decode("utf-8", errors="replace")

    def close(self) -> None:
        if self._process is not None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            self._process.wait()
            self._process = None

