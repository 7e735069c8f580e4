"""The project's exceptions: one root class, one subclass per layer.

Only broken *input to the API* raises; problems found in AMR text are
reported as :class:`~amrcheck.findings.Finding` data instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .span import Span


class AmrError(Exception):
    """Root of every error amrcheck raises on purpose."""


class InputError(AmrError):
    """A file cannot be read at all (missing, unreadable, not UTF-8)."""

    def __init__(self, message: str, path: str | None = None) -> None:
        self.message = message
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)

    def __reduce__(self) -> tuple[Any, ...]:
        # as it was made, so it crosses from a worker process intact
        return (type(self), (self.message, self.path))


class RefusedInputError(InputError):
    """A file amrcheck will not read: not a regular file, too large, or endless.

    Unlike a file that is missing or not UTF-8, such a file is not AMR
    input at all; front ends treat it like a usage error (exit status 2).
    """


class InputTooLargeError(RefusedInputError):
    """A file over the size limit of its reader (the limit is in the message)."""


class DecodeError(AmrError):
    """Text that should be a single graph is not valid PENMAN."""

    def __init__(self, message: str, span: Span | None = None) -> None:
        self.message = message
        self.span = span
        super().__init__(message)

    def __str__(self) -> str:
        if self.span is None:
            return self.message
        return f"{self.span}: {self.message}\n{self.span.caret_line()}"


class MetricError(AmrError):
    """A metric was asked for something it cannot do (unknown name, bad option)."""


class ConfigError(AmrError):
    """A configuration file or setting is invalid."""


class ClusterError(AmrError):
    """A compute cluster cannot be reached or used (``--cluster``)."""


class IndexFileError(AmrError):
    """A similarity index cannot be used: unreadable, or made by another
    version of amrcheck or with another metric."""
