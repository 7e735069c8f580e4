"""A command run as in a terminal, interrupted with Ctrl-C once it is at work.

Its stderr is a pseudo-terminal, so the command draws its progress bar
there as it does for a user; a test waits until the bar shows pairs done
(the command says it is at work: workers started, the search loaded), then
sends SIGINT to the command's process group, as a terminal's Ctrl-C does,
and waits for the exit. No step waits for a number of seconds, so a busy
machine makes it slower, never wrong.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import signal
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Sequence
from pathlib import Path

#: a progress bar's ``done/total`` column, followed by the time elapsed
_PROGRESS = re.compile(r"(\d+)/(\d+)\s+\d+:\d\d:\d\d")
#: terminal control sequences and carriage returns
_CONTROL = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][0-9A-B]|\r")
#: the longest a test waits for a state or an exit, for busy machines only
PATIENCE_S = 600.0


class Terminal:
    """``command`` with stderr on a pseudo-terminal (120 columns), stdout a pipe."""

    def __init__(
        self, command: Sequence[str], cwd: Path | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        self.process = subprocess.Popen(
            list(command), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=slave, cwd=cwd, env=env,
            start_new_session=True,  # its own process group, as in a terminal
        )
        os.close(slave)
        self._master = master
        self._err = bytearray()
        self._out = b""
        self._lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._read_err, daemon=True),
            threading.Thread(target=self._read_out, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _read_err(self) -> None:
        while True:
            try:
                data = os.read(self._master, 65536)
            except OSError:  # EIO: every process holding the terminal is gone
                return
            if not data:
                return
            with self._lock:
                self._err += data

    def _read_out(self) -> None:
        assert self.process.stdout is not None
        self._out = self.process.stdout.read()

    @property
    def stderr(self) -> str:
        """What the command wrote on its terminal, control sequences removed."""
        with self._lock:
            text = self._err.decode("utf-8", "replace")
        return _CONTROL.sub("", text)

    def text_lines(self) -> list[str]:
        """The lines of stderr other than progress bars."""
        return [
            line.strip() for line in self.stderr.split("\n")
            if line.strip() and not _PROGRESS.search(line)
        ]

    def wait_for_progress(self, done: int = 1) -> None:
        """Until the progress bar shows at least ``done`` items finished."""
        deadline = time.monotonic() + PATIENCE_S
        while time.monotonic() < deadline:
            shown = [int(m.group(1)) for m in _PROGRESS.finditer(self.stderr)]
            if shown and max(shown) >= done:
                return
            if self.process.poll() is not None:
                raise AssertionError(
                    f"the command ended ({self.process.returncode}) before "
                    f"showing progress:\n{self.stderr}"
                )
            time.sleep(0.1)
        raise AssertionError(f"no progress within {PATIENCE_S:g} s:\n{self.stderr}")

    def ctrl_c(self) -> None:
        """SIGINT to the whole process group, as a terminal's Ctrl-C."""
        os.killpg(self.process.pid, signal.SIGINT)

    def wait(self) -> tuple[int, str]:
        """The exit status and stdout, once the command has ended; a command
        still running after :data:`PATIENCE_S` is killed and fails the test."""
        try:
            status = self.process.wait(timeout=PATIENCE_S)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(
                f"Ctrl-C was lost: still running {PATIENCE_S:g} s later\n{self.stderr}"
            ) from None
        for thread in self._threads:  # until what its workers wrote is read too
            thread.join(timeout=60)
        return status, self._out.decode("utf-8", "replace")

    def kill(self) -> None:
        """Stop whatever is left of the process group (a failed test's cleanup)."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()

    def close(self) -> None:
        if self.process.poll() is None:
            self.kill()
        for thread in self._threads:
            thread.join(timeout=10)
        os.close(self._master)
