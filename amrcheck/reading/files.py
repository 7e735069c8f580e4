"""Opening input files safely: the one way the engine opens a user's file.

Layer: engine, the bottom of reading (:mod:`amrcheck.reading.corpus`
reads every file through :func:`open_input`). A path named on a command
line, in a pre-commit run or in a ``# ::reference`` header may be
anything, so every front end gets the same policy:

* **Regular files only.** A FIFO, a device (``/dev/zero``), a socket or
  a directory is refused from :func:`os.stat`, before it is opened:
  opening a FIFO for reading waits for a writer, and opening a device
  can have side effects of its own.
* **Opened without blocking, checked again once open.** The file is
  opened with ``O_NONBLOCK`` and :func:`os.fstat` of the open descriptor
  must show the file that :func:`os.stat` saw (same device and inode,
  still regular, still within the limit): a path swapped for a FIFO in
  between can neither block the open nor be read.
* **A size limit**, ``max_bytes``, checked on both: readers that hold a
  whole file pass one (:data:`MAX_HELD_BYTES` by default, the language
  server its own setting); readers that stream a file need none.
* **Read no further than the size the file had when it was opened.**
  Files of ``/proc`` and ``/sys`` report a size of 0, and some never
  end; a file that still has bytes after its size is refused as growing
  or endless instead of being read on and on. ``O_NONBLOCK`` stays set
  while reading, so the pseudo-files whose reads would wait (``/proc/kmsg``)
  fail at once instead.

Example:
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder, "a.amr")
    ...     _ = path.write_text("(a / b)\\n")
    ...     with open_input(path) as handle:
    ...         print(handle.read())
    ...     open_input(folder)
    Traceback (most recent call last):
    ...
    amrcheck.errors.RefusedInputError: /...: not a regular file but a directory; \
amrcheck reads regular files only
"""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from ..errors import InputError, InputTooLargeError, RefusedInputError

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

#: The most bytes of one file the engine holds at once: a file read whole
#: (about 14 bytes of memory per byte of AMR once parsed, so 3.5 GB at the
#: limit), or one block (a graph and its header) of a file read in chunks.
MAX_HELD_BYTES = 250_000_000

# O_NOCTTY: a terminal device must never become the controlling terminal
# (it is refused anyway, but only after fstat in a race).
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def size_text(size: int) -> str:
    """A size for messages: ``62.9 MB`` (10^6 bytes), or bytes below 1 MB.

    Example:
        >>> size_text(62_914_560), size_text(50_000_000), size_text(1_234)
        ('62.9 MB', '50 MB', '1,234 bytes')
    """
    if size < 1_000_000:
        return f"{size:,} bytes"
    return f"{size / 1e6:.1f}".removesuffix(".0") + " MB"


def size_texts(size: int, limit: int) -> tuple[str, str]:
    """:func:`size_text` of a size over a limit, in bytes if they would look equal.

    Example:
        >>> size_texts(62_914_560, 50_000_000), size_texts(50_000_001, 50_000_000)
        (('62.9 MB', '50 MB'), ('50,000,001 bytes', '50,000,000 bytes'))
    """
    texts = size_text(size), size_text(limit)
    if texts[0] == texts[1]:  # "50 MB, more than the 50 MB limit" would puzzle
        return f"{size:,} bytes", f"{limit:,} bytes"
    return texts


def refusal(status: os.stat_result, max_bytes: int | None = None) -> str | None:
    """Why a file with this :func:`os.stat` result is not read (None: it is).

    Example:
        >>> refusal(os.stat("/dev/null"))
        'not a regular file but a character device; amrcheck reads regular files only'
    """
    mode = status.st_mode
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "a special file")
        return f"not a regular file but {kind}; amrcheck reads regular files only"
    if max_bytes is not None and status.st_size > max_bytes:
        size, limit = size_texts(status.st_size, max_bytes)
        return f"{size}, more than the {limit} limit"
    return None


def open_input(path: str | Path, max_bytes: int | None = None) -> BinaryIO:
    """Open a regular file for reading, under the policy of the module docstring.

    Raises:
        RefusedInputError: not a regular file, or it grows while read
            (that on a read of the returned handle).
        InputTooLargeError: larger than ``max_bytes``.
        InputError: missing or unreadable.
    """
    name = str(path)
    before = _stat(name)
    _admit(before, name, max_bytes)
    try:
        descriptor = os.open(name, _OPEN_FLAGS)
    except OSError as exc:
        raise InputError(exc.strerror or str(exc), name) from None
    try:
        after = os.fstat(descriptor)
        if (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino):
            raise RefusedInputError("the file was replaced while being opened", name)
        _admit(after, name, max_bytes)
        return io.BufferedReader(_SizedReader(descriptor, name, after.st_size))
    except BaseException:
        os.close(descriptor)
        raise


def read_input(path: str | Path, max_bytes: int | None = MAX_HELD_BYTES) -> bytes:
    """A regular file's bytes, if no more than ``max_bytes`` (:func:`open_input`)."""
    with open_input(path, max_bytes) as handle:
        return handle.read()


def read_input_text(path: str | Path, max_bytes: int | None = MAX_HELD_BYTES) -> str:
    """A regular file's UTF-8 text, if no more than ``max_bytes`` (:func:`open_input`).

    Raises:
        InputError: as :func:`open_input`, or not UTF-8 (with a place).
    """
    name = str(path)
    return decode_utf8(read_input(name, max_bytes), name)


def decode_utf8(data: bytes | bytearray, name: str, lines_before: int = 0) -> str:
    """``data`` (whole lines, after ``lines_before`` lines) as UTF-8, or InputError.

    Example:
        >>> decode_utf8(b"(a / caf\\xe9)", "x.amr")
        Traceback (most recent call last):
        ...
        amrcheck.errors.InputError: x.amr: 1:9: not valid UTF-8 (byte 0xe9)
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = lines_before + data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            f"{line}:{column}: not valid UTF-8 (byte 0x{data[exc.start]:02x})",
            name,
        ) from None


def _stat(name: str) -> os.stat_result:
    try:
        return os.stat(name)
    except OSError as exc:
        message = exc.strerror or str(exc)
        if name == "-":
            message += " (standard input is not read: save it to a file first)"
        raise InputError(message, name) from None


def _admit(status: os.stat_result, name: str, max_bytes: int | None) -> None:
    problem = refusal(status, max_bytes)
    if problem is None:
        return
    error = InputTooLargeError if stat.S_ISREG(status.st_mode) else RefusedInputError
    raise error(problem, name)


class _SizedReader(io.RawIOBase):
    """A file descriptor read no further than ``size`` bytes, its size when opened."""

    def __init__(self, descriptor: int, name: str, size: int) -> None:
        super().__init__()
        self._descriptor = descriptor
        self.name = name
        self._size = size
        self._position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._descriptor

    def readinto(self, buffer: WriteableBuffer) -> int:
        left = self._size - self._position
        if left <= 0:
            self._check_end()
            return 0
        view = memoryview(buffer).cast("B")
        try:  # straight into the buffer: no bytes object of the size read
            count = os.readv(self._descriptor, [view[: min(left, len(view))]])
        except OSError as exc:
            raise self._error(exc) from None
        self._position += count
        return count

    def readall(self) -> bytes:
        # one buffer of the known size, not RawIOBase's steps of 8 KiB
        data = bytearray(max(0, self._size - self._position))
        done = 0
        while done < len(data):
            count = self.readinto(memoryview(data)[done:])
            if count == 0:
                break  # the file shrank: what is there is what is read
            done += count
        del data[done:]
        self._check_end()
        return bytes(data)

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        # an OSError as from any file (a position before the start is
        # EINVAL): readers such as zipfile probe with seeks and expect it
        self._position = os.lseek(self._descriptor, offset, whence)
        return self._position

    def tell(self) -> int:
        return self._position

    def close(self) -> None:
        if not self.closed:
            os.close(self._descriptor)
        super().close()

    def _check_end(self) -> None:
        # A regular file ends at its size; more bytes mean it is endless (a
        # /proc file) or growing: refused, never read on without bound. The
        # probe is 8 bytes: some /proc files refuse reads of less.
        try:
            more = os.read(self._descriptor, 8)
        except OSError as exc:
            raise self._error(exc) from None
        if more:
            why = (
                "reports a size of 0 but has content, like the files of /proc "
                "and /sys, which may never end"
                if self._size == 0
                else f"grew past its size when opened ({size_text(self._size)})"
            )
            raise RefusedInputError(
                f"{why}; amrcheck reads regular files only, up to their size",
                self.name,
            )

    def _error(self, exc: OSError) -> InputError:
        if isinstance(exc, BlockingIOError):
            return RefusedInputError(
                "reading it would wait for more data, which an ordinary file "
                "never does; amrcheck reads regular files only",
                self.name,
            )
        return InputError(exc.strerror or str(exc), self.name)
