"""Diagnostics kept per ``(source, uri)`` and published together per document.

The validator (``amrcheck``) and the reference comparison
(``amrcheck-diff``) own separate slots, so one can be replaced or cleared
without touching the other (esbonio's ``DiagnosticStore`` shape).
"""

from __future__ import annotations

from collections.abc import Callable

from lsprotocol import types

Publish = Callable[[types.PublishDiagnosticsParams], None]


class DiagnosticStore:
    """``(source, uri) -> diagnostics``; :meth:`sync` publishes a uri's union."""

    def __init__(self, publish: Publish) -> None:
        self._publish = publish
        self._by_key: dict[tuple[str, str], list[types.Diagnostic]] = {}

    def set(self, source: str, uri: str, diagnostics: list[types.Diagnostic]) -> None:
        self._by_key[(source, uri)] = diagnostics

    def clear(self, uri: str) -> None:
        """Forget every source's diagnostics of ``uri`` (publish with :meth:`sync`)."""
        for key in [k for k in self._by_key if k[1] == uri]:
            del self._by_key[key]

    def get(self, uri: str) -> list[types.Diagnostic]:
        return [d for (_, u), found in self._by_key.items() if u == uri for d in found]

    def sync(self, uri: str, version: int | None = None) -> None:
        self._publish(
            types.PublishDiagnosticsParams(
                uri=uri, version=version, diagnostics=self.get(uri)
            )
        )
