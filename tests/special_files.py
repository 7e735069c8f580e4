"""Files that are not AMR input, for the tests of issue 20 (hardening).

A :class:`Fifo` proves it was never read: the test holds it open for
reading and writing with one byte waiting, so an ``open`` of it by the
code under test does not block (a writer exists) and any read takes that
byte, which :meth:`Fifo.untouched` checks is still there.
"""

from __future__ import annotations

import os
import socket
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

#: what a test waits for a call that must not block (it returns at once)
DEADLINE = 60.0


class Fifo:
    """A named pipe with one byte in it, held open by the test."""

    MARK = b"!"

    def __init__(self, path: Path) -> None:
        self.path = path
        os.mkfifo(path)
        # O_RDWR on a FIFO never blocks on Linux and makes the test its writer
        self._descriptor = os.open(path, os.O_RDWR | os.O_NONBLOCK)
        os.write(self._descriptor, self.MARK)

    def untouched(self) -> bool:
        """Whether the byte is still there: nobody else read the pipe."""
        try:
            return os.read(self._descriptor, 16) == self.MARK
        except BlockingIOError:
            return False  # empty: someone took the byte

    def close(self) -> None:
        os.close(self._descriptor)


@contextmanager
def fifo(path: Path) -> Iterator[Fifo]:
    made = Fifo(path)
    try:
        yield made
    finally:
        made.close()


@contextmanager
def unix_socket() -> Iterator[Path]:
    """A listening Unix socket (in /tmp: socket paths must be short)."""
    folder = Path(tempfile.mkdtemp(prefix="amr-sock-", dir="/tmp"))
    path = folder / "s.amr"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        server.listen(1)
        yield path
    finally:
        server.close()
        path.unlink(missing_ok=True)
        folder.rmdir()


def sparse_file(path: Path, size: int) -> Path:
    """A regular file of ``size`` zero bytes that takes no disk space."""
    with path.open("wb") as handle:
        handle.truncate(size)
    return path


def within_deadline(call: Callable[[], T], seconds: float = DEADLINE) -> T:
    """``call()``, failing the test if it does not return in time (it blocked)."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # handed to the test thread
            failure.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise AssertionError(f"blocked for more than {seconds} s")
    if failure:
        raise failure[0]
    return outcome[0]
