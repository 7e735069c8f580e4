"""The AMR language server: one small handler per LSP method over the amrcheck engine.

Handlers translate only: LSP position -> engine offset, engine call,
engine span -> LSP range (:mod:`amr_lsp.convert`). Engine work (reading,
validating, scoring) runs in one worker thread, never on the event loop,
and is serialised there, so engine objects are never shared between two
running threads. Each document change schedules a debounced
:func:`~amr_lsp.analysis.analyze` of the newest version; its result is
published (diagnostics, ``amr/documentScore``, lens refresh) only if the
document is still open at that version.
"""

from __future__ import annotations

import asyncio
import bisect
import gc
import json
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.workspace import TextDocument

from amrcheck import Entry, __version__
from amrcheck.errors import IndexFileError
from amrcheck.graph import Graph
from amrcheck.reading.layout import layout_edits
from amrcheck.reading.locate import variable_occurrences
from amrcheck.reading.tokens import VARIABLE_NAME_RE
from amrcheck.validation.fixes import fix_for
from amrcheck.validation.propbank import FrameInventory, load_frames
from amrcheck.validation.umr import UmrOptions
from amrcheck.validation.validate import GraphFindingsCache
from amrcheck.workflows.diff import load_exact_solver

from . import umr_features
from .analysis import Analysis, analyze
from .compare import Comparer
from .completion import complete
from .config import SECTION, Settings, load_settings, merge
from .convert import (
    VALIDATION_SOURCE,
    lsp_markdown,
    lsp_range,
    lsp_text_edit,
    uri_to_path,
)
from .diagnostics import DiagnosticStore
from .documents import DocumentStore, ParsedDocument
from .graph import GRAPH_REQUEST, GraphViews, UmrSentences, graph_params
from .graph_report import GraphReport, is_low
from .hover import hover_markdown
from .lenses import (
    lens_anchor,
    lens_report,
    lens_title,
    next_low_score,
    score_text,
    unresolved_lenses,
)
from .references import ReferenceStore
from .similar import Precedents, similar_markdown, similar_payload
from .umr import UmrAnalysis, UmrCache, analyze_umr, is_umr_document
from .umr_scores import (
    KeptAlignments,
    reference_hover,
    reference_word_hover,
    score_umr,
)
from .workspace import ReadPolicy

log = logging.getLogger(__name__)

T = TypeVar("T")

#: custom notification sent after each analysis (for a status bar)
DOCUMENT_SCORE_NOTIFICATION = "amr/documentScore"
#: how long the first analyses wait for the client's answer to
#: workspace/configuration before going on with the settings they have
CONFIGURATION_WAIT_S = 5.0
#: command returning the same payload; also the code lenses' command
DOCUMENT_SCORE_COMMAND = "amrcheck.documentScore"
#: command returning the next graph below ``lowScoreThreshold`` after a position
NEXT_LOW_SCORE_COMMAND = "amrcheck.nextLowScore"
#: command returning every graph's place and score (a list sorted by score)
GRAPH_SCORES_COMMAND = "amrcheck.graphScores"
#: command returning the lens titles of the graphs that start in a range of
#: lines (VS Code's extension shows them as text, without lens debounces)
SCORE_TITLES_COMMAND = "amrcheck.scoreTitles"
#: command returning the precedents of the graph at a position (JSON list)
SIMILAR_COMMAND = "amrcheck.similarAnnotations"

#: command returning the sizes of the server's caches (entries, estimated bytes)
CACHE_STATS_COMMAND = "amrcheck.cacheStats"
#: the memory the server's caches may hold together, in MB (environment)
CACHE_BUDGET_ENV = "AMR_LSP_CACHE_MEGABYTES"
DEFAULT_CACHE_MEGABYTES = 16


def cache_budget() -> dict[str, int]:
    """Bytes for each cache: two thirds for comparisons, a sixth each for
    validator findings and for drawings (``$AMR_LSP_CACHE_MEGABYTES``)."""
    written = os.environ.get(CACHE_BUDGET_ENV, "")
    try:
        megabytes = float(written) if written else DEFAULT_CACHE_MEGABYTES
        if not megabytes > 0:
            raise ValueError
    except ValueError:
        log.warning("%s=%r is not a positive number of MB; %d used",
                    CACHE_BUDGET_ENV, written, DEFAULT_CACHE_MEGABYTES)
        megabytes = DEFAULT_CACHE_MEGABYTES
    total = int(megabytes * (1 << 20))
    sixth = total // 6
    return {"comparisons": total - 2 * sixth, "findings": sixth, "drawings": sixth}


class AmrProtocol(LanguageServerProtocol):
    """pygls' protocol, without its memory leak on built-in methods.

    pygls 2.1 runs its built-in handlers (didOpen, didChange,
    executeCommand, ...) as generators that call the server's own handler
    under a fresh message id, and files the future of each under its id;
    only a request's own id is ever removed (when it is answered). So every
    notification, and every call of an async handler such as a command,
    left a future behind, holding its result: ~2 MB per 1,000 edits. Here
    every future filed is removed once it is done.
    """

    def _execute_handler(
        self,
        msg_id: Any,
        handler: Any,
        callback: Any,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        filed = self._request_futures.get(msg_id)
        if filed is not None:
            filed.add_done_callback(partial(self._forget, msg_id))

    def _forget(self, msg_id: Any, done: Future[Any]) -> None:
        if self._request_futures.get(msg_id) is done:
            del self._request_futures[msg_id]

    def notify_json(self, method: str, params_json: str) -> None:
        """Send a notification whose params are already JSON (a UMR file's
        thousands of diagnostics, serialised a sentence at a time)."""
        if self.writer is None:
            return
        method_json = json.dumps(method)
        body = f'{{"jsonrpc":"2.0","method":{method_json},"params":{params_json}}}'
        data = body.encode(self.CHARSET)
        header = (
            f"Content-Length: {len(data)}\r\n"
            f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        )
        self.writer.write(header.encode(self.CHARSET) + data)


class AmrLanguageServer(LanguageServer):
    """pygls server plus the state the handlers share."""

    def __init__(self) -> None:
        super().__init__(
            "amr-lsp", __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=AmrProtocol,
        )
        self.settings = Settings()
        self.init_options: dict[str, Any] = {}
        self.documents = DocumentStore()
        self.references = ReferenceStore()
        self.budget = cache_budget()
        self.comparer = self.new_comparer(self.settings)
        self.precedents = Precedents()
        self.store = DiagnosticStore(self.text_document_publish_diagnostics)
        self.analyses: dict[str, Analysis] = {}
        #: validator findings of unchanged graphs, reused from version to version
        self.findings_cache = GraphFindingsCache(self.budget["findings"])
        #: explanations and layouts of the last graphs drawn (amr/graph)
        self.graph_views = GraphViews(self.budget["drawings"])
        #: the code lenses last sent for each document (reused when unchanged)
        self.lenses: dict[str, list[types.CodeLens]] = {}
        #: the client asks for lenses and hints again after each edit by
        #: itself (:func:`asks_again_after_edits`)
        self.client_follows_edits = False
        #: documents whose pending analysis is for the client's own edit
        self.edited: set[str] = set()
        #: the version each document's last lenses (``lenses``) were made for
        self.lens_versions: dict[str, int | None] = {}
        #: the last version of each document whose edit moved lines
        self.lines_moved: dict[str, int] = {}
        #: documents whose last lenses were sent before their analysis (a
        #: version's lenses, reused for a later one that moved no line)
        self.sent_early: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._shown_problems: set[str] = set()
        #: set once the client's settings are known (or it has none to give):
        #: a document opened right after start-up is scored with the metric
        #: the user chose, not first with the default
        self.configured = asyncio.Event()
        #: open UMR documents (``umr`` language, ``.umr`` path or UMR headings)
        self.umr_uris: set[str] = set()
        self.umr_caches: dict[str, UmrCache] = {}
        self.umr_analyses: dict[str, UmrAnalysis] = {}
        self.umr_options = UmrOptions()
        #: the node mappings of each UMR document's last version (its layers)
        self.umr_alignments: dict[str, KeptAlignments] = {}
        # one thread: the engine work of all documents runs there in turn
        self.engine = ThreadPoolExecutor(max_workers=1, thread_name_prefix="amr-engine")

    # -- engine thread ----------------------------------------------------------

    async def run_engine(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.engine, function, *args)

    @property
    def encoding(self) -> str:
        encoding = self.workspace.position_encoding
        return str(getattr(encoding, "value", encoding) or "utf-16")

    @property
    def root(self) -> Path | None:
        root = self.workspace.root_uri
        return uri_to_path(root) if root else None

    def frames(self) -> FrameInventory:
        return load_frames()

    def open_document(self, uri: str) -> TextDocument | None:
        """The client's open document ``uri``, or None.

        Never pygls's ``get_text_document``: for a document that is not
        open it makes one that reads the file from disk (any path a
        request names: a FIFO, ``/dev/zero``). pygls keys open documents
        by the unquoted URI; each keeps the URI as the client sent it.
        """
        document: TextDocument | None = self.workspace.text_documents.get(unquote(uri))
        return document

    def require_open(self, uri: str) -> TextDocument:
        document = self.open_document(uri)
        if document is None:
            raise JsonRpcException(
                f"{uri} is not open: the server reads only the documents "
                "the client sends", code=types.ErrorCodes.InvalidParams,
            )
        return document

    async def parsed(self, uri: str) -> ParsedDocument:
        """The current version of a document, read by the engine."""
        document = self.require_open(uri)
        known = self.documents.get(uri)
        if (
            known is not None
            and known.version == document.version
            and known.lines.text == document.source
        ):
            return known
        return await self.run_engine(
            self.documents.parse, uri, document.version, document.source, self.encoding
        )

    # -- analysis scheduling ----------------------------------------------------

    def schedule(self, uri: str, delay: float, edited: bool = False) -> None:
        """(Re-)analyse ``uri`` after ``delay`` seconds of quiet (``edited``:
        because the client changed it).

        Bursts coalesce without a long delay: a new change cancels the
        pending run, whether it is still waiting out its delay or queued
        for the engine thread (a queued job is cancelled before it starts).
        A run already in the engine thread finishes, but its result is
        dropped, and the one run queued behind it is always for the newest
        version.
        """
        pending = self._tasks.pop(uri, None)
        if pending is not None:
            pending.cancel()
        if edited:
            self.edited.add(uri)
        else:
            self.edited.discard(uri)
        self._tasks[uri] = asyncio.get_running_loop().create_task(
            self._debounced(uri, delay)
        )

    def schedule_all(self, but: str | None = None) -> None:
        """Analyse every open document again (but ``but``)."""
        for document in list(self.workspace.text_documents.values()):
            if document.uri != but:
                self.schedule(document.uri, 0)

    async def _debounced(self, uri: str, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        await self.refresh(uri)

    async def refresh(self, uri: str) -> Analysis | None:
        """Analyse the current version of ``uri`` and publish the results."""
        document = self.open_document(uri)
        if document is None:
            return None
        if uri in self.umr_uris:
            return await self.umr_scores(uri, await self.umr(uri, publish=True))
        version, text = document.version, document.source
        await self.wait_configured()
        settings, comparer = self.settings, self.comparer
        analysis = await self.run_engine(
            self._analyze, uri, version, text, settings, comparer,
            self.analyses.get(uri),
        )
        current = self.open_document(uri)
        if current is None or current.version != version:
            return None  # closed or edited meanwhile: a newer run publishes
        previous = self.analyses.get(uri)
        if previous is None:
            # A newly opened document and its reference are long-lived: move
            # them out of the collector's reach, or every full collection
            # walks them (~0.1 s for Little Prince) in the middle of typing.
            gc.freeze()
        self.analyses[uri] = analysis
        self._publish(uri, analysis)
        # the previous version (a whole corpus) is freed after publishing,
        # not before: freeing it takes a few milliseconds
        del previous
        return analysis

    def _analyze(
        self, uri: str, version: int | None, text: str, settings: Settings,
        comparer: Comparer, previous: Analysis | None,
    ) -> Analysis:
        clock = time.perf_counter()
        parsed = self.documents.parse(uri, version, text, self.encoding)
        read = time.perf_counter() - clock
        analysis = analyze(
            parsed, settings, comparer, self.references, self.root,
            self.findings_cache, previous,
        )
        analysis.timings["read"] = read
        return analysis

    def _publish(self, uri: str, analysis: Analysis) -> None:
        reference = analysis.reference
        if reference is not None and reference.problem is not None:
            self.show_once(reference.problem, types.MessageType.Warning)
        for source, diagnostics in analysis.diagnostics.items():
            self.store.set(source, uri, diagnostics)
        self.store.sync(uri, analysis.version)
        if analysis.settings.features.document_score:
            self.protocol.notify(DOCUMENT_SCORE_NOTIFICATION, analysis.score_summary())
        if not (self.client_follows_edits and uri in self.edited) or (
            self._early_lenses_moved(uri, analysis)
        ):
            self._refresh_views(analysis.settings)
        log.debug(
            "analysed %s v%s: %s", uri, analysis.version,
            {phase: round(s * 1000) for phase, s in analysis.timings.items()},
        )

    def early_lenses(
        self, uri: str, version: int | None
    ) -> list[types.CodeLens] | None:
        """The last lenses sent, if they are still where the graphs of
        ``version`` start (no edit since moved a line), else None.

        They are sent again at once, instead of after the analysis: VS Code
        asks for lenses a debounce after each edit, a debounce that grows
        with how long its requests take (a request waiting for a 1,562-graph
        analysis made the next edits' lenses later still, issue 29); the
        titles come with ``codeLens/resolve``, which waits for the analysis.
        """
        given, made_for = self.lenses.get(uri), self.lens_versions.get(uri)
        if (
            given is None or made_for is None or version is None
            or made_for == version
            or self.lines_moved.get(uri, made_for) > made_for
        ):
            return None
        self.sent_early.add(uri)
        return given

    def _early_lenses_moved(self, uri: str, analysis: Analysis) -> bool:
        """Whether lenses sent before ``analysis`` are not where its graphs
        start (a graph split or joined on a line): the client must ask again."""
        if uri not in self.sent_early:
            return False
        self.sent_early.discard(uri)
        given = self.lenses.get(uri) or []
        fresh = unresolved_lenses(analysis, given)
        self.lenses[uri], self.lens_versions[uri] = fresh, analysis.version
        return [lens.range.start for lens in fresh] != [
            lens.range.start for lens in given
        ]

    def _refresh_views(self, settings: Settings) -> None:
        """Ask the client to re-request lenses and hints (if it can be asked)."""
        workspace = self.client_capabilities.workspace
        if workspace is None:
            return
        lenses, hints = workspace.code_lens, workspace.inlay_hint
        if settings.features.code_lens and lenses and lenses.refresh_support:
            self.workspace_code_lens_refresh(None)
        if settings.features.inlay_hints and hints and hints.refresh_support:
            self.workspace_inlay_hint_refresh(None)

    async def umr(self, uri: str, publish: bool = False) -> UmrAnalysis:
        """The UMR analysis of the current version of ``uri`` (published
        as diagnostics when ``publish`` and still current)."""
        document = self.require_open(uri)
        version, text = document.version, document.source
        known = self.umr_analyses.get(uri)
        if known is None or known.version != version or known.lines.text != text:
            cache = self.umr_caches.setdefault(uri, UmrCache())
            known = await self.run_engine(
                analyze_umr, uri, version, text, self.encoding, cache, self.umr_options
            )
            current = self.open_document(uri)
            if current is None or current.version != version:
                raise JsonRpcException("the document changed; try again",
                                       code=types.LSPErrorCodes.ContentModified)
            if uri not in self.umr_analyses:
                gc.freeze()  # as for AMR: keep the collector off the open document
            self.umr_analyses[uri] = known
            publish = True
        if publish:
            converter = self.protocol._converter
            params = await self.run_engine(known.diagnostics_json, converter)
            current = self.open_document(uri)
            protocol = self.protocol
            assert isinstance(protocol, AmrProtocol)
            if current is not None and current.version == version:
                protocol.notify_json(
                    types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params
                )
        return known

    async def umr_scores(self, uri: str, umr: UmrAnalysis) -> Analysis | None:
        """Score the UMR document ``uri`` (read as ``umr``) against its
        reference and publish its document score (None: it changed meanwhile)."""
        document = self.open_document(uri)
        if document is None or document.version != umr.version:
            return None
        await self.wait_configured()
        settings, comparer = self.settings, self.comparer
        analysis = await self.run_engine(
            score_umr, umr, document.source, settings, comparer, self.references,
            self.root, self.analyses.get(uri),
            self.umr_alignments.setdefault(uri, KeptAlignments()),
        )
        current = self.open_document(uri)
        if current is None or current.version != umr.version:
            return None
        self.analyses[uri] = analysis
        reference = analysis.reference
        if reference is not None and reference.problem is not None:
            self.show_once(reference.problem, types.MessageType.Warning)
        if settings.features.document_score:
            self.protocol.notify(DOCUMENT_SCORE_NOTIFICATION, analysis.score_summary())
        if not (self.client_follows_edits and uri in self.edited) or (
            self._early_lenses_moved(uri, analysis)
        ):
            self._refresh_views(settings)
        return analysis

    async def analysis(self, uri: str) -> Analysis:
        """The analysis of the current version, waiting for (or running) it."""
        for _ in range(3):  # a newer edit may cancel the run we wait for
            document = self.require_open(uri)
            known = self.analyses.get(uri)
            if (
                known is not None
                and known.version == document.version
                # made before the settings changed: the re-analysis that
                # the change scheduled is the one to wait for
                and known.settings == self.settings
            ):
                return known
            pending = self._tasks.get(uri)
            if pending is None or pending.done():
                break
            try:
                await asyncio.shield(pending)
            except asyncio.CancelledError:
                continue
        found = await self.refresh(uri)
        if found is None:
            raise JsonRpcException("the document changed; try again",
                                   code=types.LSPErrorCodes.ContentModified)
        return found

    def show_once(self, message: str, kind: types.MessageType) -> None:
        if message not in self._shown_problems:
            self._shown_problems.add(message)
            self.window_show_message(
                types.ShowMessageParams(type=kind, message=message)
            )

    # -- settings ---------------------------------------------------------------

    async def wait_configured(self) -> None:
        if self.configured.is_set():
            return
        try:
            await asyncio.wait_for(self.configured.wait(), CONFIGURATION_WAIT_S)
        except asyncio.TimeoutError:
            # a client that never answers must not stop the server; its
            # answer, should it come late, re-analyses every document
            log.warning("no workspace configuration after %s s", CONFIGURATION_WAIT_S)
            self.configured.set()

    def apply_settings(self, raw: Any) -> None:
        settings, problems = load_settings(raw)
        if problems:
            self.window_show_message(
                types.ShowMessageParams(
                    type=types.MessageType.Warning,
                    message="amrcheck: invalid settings, defaults used: "
                    + "; ".join(problems),
                )
            )
        old = self.settings
        if (settings.metric, settings.metric_options, settings.time_budget) != (
            old.metric, old.metric_options, old.time_budget
        ):
            self.comparer = self.new_comparer(settings)
        self.settings = settings
        self.update_policy()

    def new_comparer(self, settings: Settings) -> Comparer:
        return Comparer(
            settings.metric,
            settings.metric_options,
            self.budget["comparisons"],
            settings.time_budget,
        )

    def update_policy(self) -> None:
        """What may be read from disk: the workspace folders and the settings."""
        folders = [uri_to_path(f.uri) for f in self.workspace.folders.values()]
        self.references.policy = ReadPolicy.build(
            [path for path in (self.root, *folders) if path is not None],
            self.settings,
        )

    async def fetch_configuration(self) -> None:
        workspace = self.client_capabilities.workspace
        if workspace is None or not workspace.configuration:
            return
        try:
            result = await self.workspace_configuration_async(
                types.ConfigurationParams(
                    items=[types.ConfigurationItem(section=SECTION)]
                )
            )
        except Exception as exc:  # a client bug must not stop the server
            log.warning("workspace/configuration failed: %s", exc)
            return
        raw = result[0] if result else None
        if isinstance(raw, dict) and raw:
            self.apply_settings(merge(self.init_options, raw))
            self.schedule_all()


SERVER = AmrLanguageServer()


# -- lifecycle and synchronisation --------------------------------------------


#: clients whose editor asks for code lenses and inlay hints again after
#: each edit on its own: VS Code and its builds (its CodeLens controller
#: re-requests on every content change, after its own debounce)
FOLLOWS_EDITS = ("Visual Studio Code", "code-server", "Code - OSS", "VSCodium")


def asks_again_after_edits(client: types.ClientInfo | None) -> bool:
    """Whether the client asks for lenses and hints again after its edits.

    To such a client, a ``workspace/codeLens/refresh`` after each edit's
    analysis is worse than useless: VS Code restarts its lens debounce on
    it, so the lens of the edited graph came the analysis's time later
    (issue 29). Refreshes are still sent for what the client cannot know:
    a setting or a reference file changed.

        >>> asks_again_after_edits(types.ClientInfo(name="code-server"))
        True
        >>> asks_again_after_edits(types.ClientInfo(name="Neovim"))
        False
    """
    return client is not None and client.name.startswith(FOLLOWS_EDITS)


@SERVER.feature(types.INITIALIZE)
def initialize(ls: AmrLanguageServer, params: types.InitializeParams) -> None:
    raw = params.initialization_options
    if isinstance(raw, dict) and set(raw) == {SECTION}:
        raw = raw[SECTION]  # {"amrcheck": settings} is accepted too
    ls.init_options = raw if isinstance(raw, dict) else {}
    ls.client_follows_edits = asks_again_after_edits(params.client_info)
    ls.apply_settings(raw)  # None: defaults; anything else wrong: reported
    ls.references.encoding = ls.encoding
    # load the frame inventory and metrics before the first request needs them
    ls.engine.submit(load_frames)
    ls.engine.submit(load_exact_solver)


@SERVER.feature(types.INITIALIZED)
async def initialized(ls: AmrLanguageServer, params: types.InitializedParams) -> None:
    watched = ls.client_capabilities.workspace
    if (
        watched is not None
        and watched.did_change_watched_files is not None
        and watched.did_change_watched_files.dynamic_registration
    ):
        # reference files may change on disk while their documents are open
        ls.client_register_capability(
            types.RegistrationParams(
                registrations=[
                    types.Registration(
                        id="amrcheck-watch-references",
                        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        register_options=types.DidChangeWatchedFilesRegistrationOptions(
                            watchers=[types.FileSystemWatcher(glob_pattern="**/*")]
                        ),
                    )
                ]
            )
        )
    try:
        await ls.fetch_configuration()
    finally:
        ls.configured.set()


@SERVER.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(
    ls: AmrLanguageServer, params: types.DidChangeConfigurationParams
) -> None:
    pushed = params.settings.get(SECTION) if isinstance(params.settings, dict) else None
    if isinstance(pushed, dict):
        ls.apply_settings(merge(ls.init_options, pushed))
        ls.schedule_all()
    else:
        await ls.fetch_configuration()


@SERVER.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
def did_change_workspace_folders(
    ls: AmrLanguageServer, params: types.DidChangeWorkspaceFoldersParams
) -> None:
    # pygls has updated ls.workspace.folders: header references follow them
    ls.update_policy()
    ls.schedule_all()


@SERVER.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(
    ls: AmrLanguageServer, params: types.DidChangeWatchedFilesParams
) -> None:
    for change in params.changes:
        path = uri_to_path(change.uri)
        if path is not None:
            ls.references.forget(path)
    ls.schedule_all()


@SERVER.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: AmrLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    # a document reopened without a close (or after one) restarts its versions
    ls.analyses.pop(params.text_document.uri, None)
    ls.umr_analyses.pop(params.text_document.uri, None)
    document = params.text_document
    if is_umr_document(document.uri, document.language_id, document.text):
        ls.umr_uris.add(document.uri)
    else:
        ls.umr_uris.discard(document.uri)
    ls.schedule(params.text_document.uri, 0)


@SERVER.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(
    ls: AmrLanguageServer, params: types.DidChangeTextDocumentParams
) -> None:
    uri, version = params.text_document.uri, params.text_document.version
    if any(moves_lines(change) for change in params.content_changes):
        ls.lines_moved[uri] = version
    ls.schedule(uri, ls.settings.debounce_ms / 1000, edited=True)


def moves_lines(change: types.TextDocumentContentChangeEvent) -> bool:
    """Whether an edit may move a line (or replaces the whole text).

        >>> moves_lines(types.TextDocumentContentChangeWholeDocument(text="x"))
        True
        >>> at = types.Position(line=3, character=4)
        >>> moves_lines(types.TextDocumentContentChangePartial(
        ...     range=types.Range(start=at, end=at), text="x"))
        False
    """
    if not isinstance(change, types.TextDocumentContentChangePartial):
        return True
    return "\n" in change.text or change.range.start.line != change.range.end.line


@SERVER.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: AmrLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
    # another open document may use this file as its reference
    path = uri_to_path(params.text_document.uri)
    if path is not None:
        ls.references.forget(path)
        ls.schedule_all(but=params.text_document.uri)


@SERVER.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: AmrLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    pending = ls._tasks.pop(uri, None)
    if pending is not None:
        pending.cancel()
    ls.analyses.pop(uri, None)
    ls.lenses.pop(uri, None)
    ls.edited.discard(uri)
    ls.lens_versions.pop(uri, None)
    ls.lines_moved.pop(uri, None)
    ls.sent_early.discard(uri)
    ls.umr_uris.discard(uri)
    ls.umr_caches.pop(uri, None)
    ls.umr_analyses.pop(uri, None)
    ls.umr_alignments.pop(uri, None)
    ls.documents.forget(uri)
    ls.store.clear(uri)
    ls.store.sync(uri)


# -- score: lenses, inlay hints, command --------------------------------------


@SERVER.feature(
    types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=True)
)
async def code_lens(
    ls: AmrLanguageServer, params: types.CodeLensParams
) -> list[types.CodeLens]:
    # Ranges only: a title is computed when the client resolves the lens.
    # Editors resolve the lenses they show (VS Code: the visible ones), so
    # a keystroke in a 1,562-graph file does not re-send 1,562 titles.
    uri = params.text_document.uri
    if not ls.settings.features.code_lens:
        return []
    if ls.client_follows_edits:
        early = ls.early_lenses(uri, ls.require_open(uri).version)
        if early is not None:
            return early
    analysis = await ls.analysis(uri)
    lenses = unresolved_lenses(analysis, ls.lenses.get(uri))
    ls.lenses[uri] = lenses
    ls.lens_versions[uri] = analysis.version
    return lenses


@SERVER.feature(types.CODE_LENS_RESOLVE)
async def code_lens_resolve(
    ls: AmrLanguageServer, lens: types.CodeLens
) -> types.CodeLens:
    data = lens.data
    if not (
        isinstance(data, list) and len(data) == 2
        and isinstance(data[0], str) and isinstance(data[1], int)
    ):
        raise JsonRpcException(
            "not a code lens of this server", code=types.ErrorCodes.InvalidParams
        )
    uri, index = data
    analysis = await ls.analysis(uri)
    report = lens_report(analysis, index, lens.range.start)
    if report is None:  # the lens is older than the document's graphs
        raise JsonRpcException("the document changed; try again",
                               code=types.LSPErrorCodes.ContentModified)
    lens.command = types.Command(
        title=lens_title(analysis, report),
        command=DOCUMENT_SCORE_COMMAND,
        arguments=[uri],
    )
    return lens


@SERVER.feature(types.TEXT_DOCUMENT_INLAY_HINT)
async def inlay_hint(
    ls: AmrLanguageServer, params: types.InlayHintParams
) -> list[types.InlayHint]:
    if not ls.settings.features.inlay_hints:
        return []
    analysis = await ls.analysis(params.text_document.uri)
    lines = analysis.parsed.lines
    first, last = params.range.start.line, params.range.end.line
    hints = []
    for report in analysis.graphs:
        graph = report.entry.graph
        if graph is None:
            continue
        end = lines.line_range(graph.start).end
        if first <= end.line <= last:
            hints.append(
                types.InlayHint(
                    position=end,
                    label=lens_title(analysis, report),
                    padding_left=True,
                )
            )
    return hints


def command_document(ls: AmrLanguageServer, uri: Any) -> str:
    """``uri`` if it names an open document; else an InvalidParams error
    that says so (a command's arguments come from anywhere: a key binding,
    a script, a status bar of a closed editor)."""
    if not isinstance(uri, str):
        raise JsonRpcException(
            f"expected a document URI, not {uri!r}",
            code=types.ErrorCodes.InvalidParams,
        )
    if uri not in ls.workspace.text_documents:
        raise JsonRpcException(
            f"the document is not open: {uri} (open it first: the score is of "
            "the editor's text)",
            code=types.ErrorCodes.InvalidParams,
        )
    return uri


@SERVER.command(NEXT_LOW_SCORE_COMMAND)
async def next_low_score_command(
    ls: AmrLanguageServer, uri: Any, line: int, character: int
) -> dict[str, Any] | None:
    """The next graph below ``lowScoreThreshold`` after (``line``,
    ``character``), wrapping around to the first; None when there is none."""
    analysis = await ls.analysis(command_document(ls, uri))
    parsed = analysis.parsed
    offset = parsed.offset(types.Position(line=line, character=character))
    report = next_low_score(analysis, offset)
    if report is None or report.comparison is None or report.entry.graph is None:
        return None
    graph = report.entry.graph
    start = parsed.lines.position(graph.start)
    return {
        "uri": uri,
        "id": report.entry.label,
        "line": start.line,
        "character": start.character,
        "range": range_json(parsed.range(report.entry.span)),
        "metric": analysis.settings.metric,
        "score": report.comparison.score.f1,
        "threshold": analysis.settings.low_score_threshold,
        "wrapped": graph.start <= offset,
    }


@SERVER.command(GRAPH_SCORES_COMMAND)
async def graph_scores_command(ls: AmrLanguageServer, uri: Any) -> dict[str, Any]:
    """Every graph of the document in document order: its place, its score
    (None when it has none, ``note`` says why) and whether it is below
    ``lowScoreThreshold``, for a client's list of graphs by score
    (issue 22; the scores in document symbols are rounded text)."""
    analysis = await ls.analysis(command_document(ls, uri))
    parsed = analysis.parsed
    graphs = []
    for report in analysis.graphs:
        entry = report.entry
        start = parsed.lines.position(
            entry.graph.start if entry.graph is not None else entry.start
        )
        comparison = report.comparison
        graphs.append(
            {
                "id": entry.label,
                "line": start.line,
                "character": start.character,
                "range": range_json(parsed.range(entry.span)),
                "score": comparison.score.f1 if comparison else None,
                # what the document score counts for a graph that cannot be read
                "counted_as": report.empty.f1 if report.empty else None,
                # the reference graph it is paired with (the pairing every
                # front end uses), 0-based like ``line``
                "reference": _partner_json(analysis, report.partner),
                "low": is_low(report, analysis.settings),
                "note": report.note,
                "sentence": entry.metadata.get("snt"),
            }
        )
    return {
        "uri": uri,
        "version": analysis.version,
        "metric": analysis.settings.metric,
        "threshold": analysis.settings.low_score_threshold,
        "graphs": graphs,
    }


def _partner_json(analysis: Analysis, partner: Entry | None) -> dict[str, Any] | None:
    reference = analysis.reference
    if partner is None or reference is None or reference.lines is None:
        return None
    start = reference.lines.position(partner.graph_start)
    return {"id": partner.label, "uri": reference.uri, "line": start.line,
            "character": start.character}


@SERVER.command(SCORE_TITLES_COMMAND)
async def score_titles_command(
    ls: AmrLanguageServer, uri: Any, first_line: Any, last_line: Any
) -> dict[str, Any]:
    """The lens title of each graph whose first line (where its lens sits)
    is in ``first_line``..``last_line`` (0-based, inclusive; ``last_line``
    null: to the end), with the lines of its whole entry and its score.

    For a client that paints the scores itself as soon as a check ends
    (VS Code's lenses repaint at least 500 ms after a keystroke, issue 29);
    only the lines it shows, so a keystroke in a 1,562-graph file does not
    send 1,562 titles. Waits for the analysis of the current version, as
    the lenses' resolve does.
    """
    for name, value in (("first line", first_line), ("last line", last_line)):
        if (value is not None or name == "first line") and (
            type(value) is not int or value < 0
        ):
            raise JsonRpcException(
                f"expected the {name} as a line number (0 or more), not {value!r}",
                code=types.ErrorCodes.InvalidParams,
            )
    analysis = await ls.analysis(command_document(ls, uri))
    parsed = analysis.parsed
    lines = parsed.lines
    reports = analysis.graphs

    def graph_line(report: GraphReport) -> int:
        return lines.line_character(report.entry.graph_start)[0]

    start = bisect.bisect_left(reports, first_line, key=graph_line)
    end = (
        len(reports) if last_line is None
        else bisect.bisect_right(reports, last_line, key=graph_line)
    )
    graphs = []
    for report in reports[start:end]:
        anchor = lens_anchor(analysis, report).start
        whole = parsed.range(report.entry.span)
        comparison = report.comparison
        graphs.append(
            {
                "id": report.entry.label,
                "line": anchor.line,
                "character": anchor.character,
                "startLine": whole.start.line,
                "endLine": whole.end.line,
                "title": lens_title(analysis, report),
                "score": comparison.score.f1 if comparison else None,
            }
        )
    return {"uri": uri, "version": analysis.version, "graphs": graphs}


def range_json(whole: types.Range) -> dict[str, Any]:
    return {
        "start": {"line": whole.start.line, "character": whole.start.character},
        "end": {"line": whole.end.line, "character": whole.end.character},
    }


@SERVER.command(DOCUMENT_SCORE_COMMAND)
async def document_score(ls: AmrLanguageServer, uri: Any) -> dict[str, Any]:
    return (await ls.analysis(command_document(ls, uri))).score_summary()


# -- hovers and navigation ----------------------------------------------------


@SERVER.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: AmrLanguageServer, params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    if uri in ls.umr_uris:
        return await umr_hover(ls, uri, params.position)
    analysis = await ls.analysis(params.text_document.uri)
    token = analysis.parsed.token_at(params.position)
    if token is None:
        return None
    text = hover_markdown(token, analysis, ls.frames())
    if token.index == 0 and ls.settings.similar.index:  # the graph's top node
        similar = await similar_section(ls, params.text_document.uri, token.graph)
        text = "\n\n".join(part for part in (text, similar) if part)
    if text is None:
        return None
    return types.Hover(
        contents=lsp_markdown(text), range=lsp_range(token.span, analysis.parsed.lines)
    )


async def umr_hover(
    ls: AmrLanguageServer, uri: str, position: types.Position
) -> types.Hover | None:
    """A UMR node's hover, and what its reference file says of it (if any)."""
    umr = await ls.umr(uri)
    offset = umr.lines.offset(position)
    found = umr_features.hover(umr, offset)
    if found is None:
        return None
    text, where = found
    here = umr_features.at(umr, offset)
    if here is not None:
        scores = await ls.analysis(uri)
        if scores.version == umr.version:
            against = (
                reference_word_hover(scores, umr, here.sentence, here.detail)
                if here.kind is umr_features.Kind.WORD
                else reference_hover(scores, umr, here.name)
            )
            if against:
                text += "\n\n" + against
    return types.Hover(contents=lsp_markdown(text), range=where)


async def similar_hits(ls: AmrLanguageServer, uri: str, graph: Graph) -> Any:
    """(index, precedents) of ``graph`` from the configured index, or None
    after telling the user once why the index cannot be used."""
    path = uri_to_path(uri)
    place = (str(path.resolve()) if path else uri, graph.span.line)
    try:
        return await asyncio.to_thread(
            ls.precedents.find, ls.settings.similar, ls.root, graph, place
        )
    except IndexFileError as error:
        message = f"amrcheck: similar annotations: {error}"
        ls.show_once(message, types.MessageType.Warning)
        return None


async def similar_section(ls: AmrLanguageServer, uri: str, graph: Graph) -> str | None:
    found = await similar_hits(ls, uri, graph)
    return None if found is None else similar_markdown(*found)


@SERVER.command(CACHE_STATS_COMMAND)
async def cache_stats_command(ls: AmrLanguageServer) -> dict[str, Any]:
    """Each cache's entries, estimated bytes and budget (``maxBytes``): what
    the server keeps between edits (its size is bounded; see
    ``$AMR_LSP_CACHE_MEGABYTES``)."""

    def collect() -> dict[str, Any]:  # in the engine thread, the caches' user
        return {
            # requests and notifications pygls still holds (stays small)
            "pendingMessages": len(ls.protocol._request_futures),
            "comparisons": ls.comparer.stats(),
            "findings": ls.findings_cache.stats(),
            **ls.graph_views.stats(),
        }

    return await ls.run_engine(collect)


@SERVER.command(SIMILAR_COMMAND)
async def similar_annotations(
    ls: AmrLanguageServer, uri: str, line: int, character: int
) -> list[dict[str, Any]]:
    """The precedents of the graph at (``line``, ``character``): for clients
    that list them (a quick pick, a panel)."""
    parsed = await ls.parsed(uri)
    token = parsed.token_at(types.Position(line=line, character=character))
    if token is None or not ls.settings.similar.index:
        return []
    found = await similar_hits(ls, uri, token.graph)
    return [] if found is None else similar_payload(found[1])


@SERVER.feature(types.TEXT_DOCUMENT_DEFINITION)
async def definition(
    ls: AmrLanguageServer, params: types.DefinitionParams
) -> types.Location | None:
    if params.text_document.uri in ls.umr_uris:
        umr = await ls.umr(params.text_document.uri)
        return umr_features.definition(umr, umr.lines.offset(params.position))
    parsed = await ls.parsed(params.text_document.uri)
    token = parsed.token_at(params.position)
    if token is None or token.variable is None:
        return None
    span = token.graph.definition_span(token.variable)
    if span is None:
        return None
    return types.Location(uri=parsed.uri, range=parsed.range(span))


@SERVER.feature(types.TEXT_DOCUMENT_REFERENCES)
async def references(
    ls: AmrLanguageServer, params: types.ReferenceParams
) -> list[types.Location]:
    if params.text_document.uri in ls.umr_uris:
        umr = await ls.umr(params.text_document.uri)
        return umr_features.references(
            umr, umr.lines.offset(params.position), params.context.include_declaration
        )
    parsed = await ls.parsed(params.text_document.uri)
    token = parsed.token_at(params.position)
    if token is None or token.variable is None:
        return []
    spans = variable_occurrences(token.graph, token.variable)
    definition = token.graph.definition_span(token.variable)
    if not params.context.include_declaration and definition is not None:
        spans = [s for s in spans if s.start != definition.start]
    return [types.Location(uri=parsed.uri, range=parsed.range(s)) for s in spans]


@SERVER.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
async def prepare_rename(
    ls: AmrLanguageServer, params: types.PrepareRenameParams
) -> types.PrepareRenamePlaceholder | None:
    if params.text_document.uri in ls.umr_uris:
        return None  # not for UMR: a name stands in four blocks and later sentences
    parsed = await ls.parsed(params.text_document.uri)
    token = parsed.token_at(params.position)
    if token is None or token.variable is None:
        return None
    return types.PrepareRenamePlaceholder(
        range=parsed.range(token.span), placeholder=token.variable
    )


@SERVER.feature(types.TEXT_DOCUMENT_RENAME)
async def rename(
    ls: AmrLanguageServer, params: types.RenameParams
) -> types.WorkspaceEdit | None:
    if params.text_document.uri in ls.umr_uris:
        return None
    parsed = await ls.parsed(params.text_document.uri)
    token = parsed.token_at(params.position)
    if token is None or token.variable is None:
        return None
    new_name = params.new_name
    if not VARIABLE_NAME_RE.fullmatch(new_name):
        raise JsonRpcException(
            f"{new_name!r} is not a valid variable name",
            code=types.LSPErrorCodes.RequestFailed,
        )
    if new_name != token.variable and new_name in token.graph.variables():
        raise JsonRpcException(
            f"{new_name!r} is already a variable of this graph",
            code=types.LSPErrorCodes.RequestFailed,
        )
    edits = [
        types.TextEdit(range=parsed.range(span), new_text=new_name)
        for span in variable_occurrences(token.graph, token.variable)
    ]
    return types.WorkspaceEdit(changes={parsed.uri: edits})


@SERVER.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def document_symbol(
    ls: AmrLanguageServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol]:
    if params.text_document.uri in ls.umr_uris:
        return umr_features.symbols(await ls.umr(params.text_document.uri))
    analysis = await ls.analysis(params.text_document.uri)
    parsed = analysis.parsed
    symbols = []
    for entry, report in zip(parsed.corpus, analysis.graphs, strict=True):
        # the score first: an outline sorted or scanned by score (issue 22)
        detail = " · ".join(
            part for part in (score_text(analysis, report), entry.metadata.get("snt"))
            if part
        )
        selection = entry.metadata_span("id") or (
            entry.graph.definition_span(entry.graph.top) if entry.graph else None
        )
        whole = parsed.range(entry.span)
        symbols.append(
            types.DocumentSymbol(
                name=entry.label,
                detail=detail or None,
                kind=types.SymbolKind.Struct,
                range=whole,
                selection_range=parsed.range(selection) if selection else whole,
            )
        )
    return symbols


@SERVER.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
async def folding_range(
    ls: AmrLanguageServer, params: types.FoldingRangeParams
) -> list[types.FoldingRange]:
    if params.text_document.uri in ls.umr_uris:
        umr = await ls.umr(params.text_document.uri)
        return [
            types.FoldingRange(start_line=s.range.start.line, end_line=s.range.end.line,
                               kind=types.FoldingRangeKind.Region)
            for s in umr_features.symbols(umr) if s.range.end.line > s.range.start.line
        ]
    parsed = await ls.parsed(params.text_document.uri)
    folds = []
    for entry in parsed.corpus:
        start = parsed.lines.position(entry.start).line
        end = parsed.lines.position(max(entry.end - 1, entry.start)).line
        if end > start:
            folds.append(
                types.FoldingRange(
                    start_line=start, end_line=end, kind=types.FoldingRangeKind.Region
                )
            )
    return folds


# -- editing ------------------------------------------------------------------


@SERVER.feature(types.TEXT_DOCUMENT_FORMATTING)
async def formatting(
    ls: AmrLanguageServer, params: types.DocumentFormattingParams
) -> list[types.TextEdit]:
    if params.text_document.uri in ls.umr_uris:
        umr = await ls.umr(params.text_document.uri)
        return umr_features.format_edits(umr, _indent_unit(params.options))
    parsed = await ls.parsed(params.text_document.uri)
    return await _layout(ls, parsed, parsed.corpus.entries, params.options)


@SERVER.feature(types.TEXT_DOCUMENT_RANGE_FORMATTING)
async def range_formatting(
    ls: AmrLanguageServer, params: types.DocumentRangeFormattingParams
) -> list[types.TextEdit]:
    if params.text_document.uri in ls.umr_uris:
        umr = await ls.umr(params.text_document.uri)
        lines = umr.lines
        within = (lines.offset(params.range.start), lines.offset(params.range.end))
        return umr_features.format_edits(umr, _indent_unit(params.options), within)
    parsed = await ls.parsed(params.text_document.uri)
    return await _layout(ls, parsed, parsed.entries_touching(params.range),
                         params.options)


def _indent_unit(options: types.FormattingOptions) -> str:
    return " " * options.tab_size if options.insert_spaces else "\t"


async def _layout(
    ls: AmrLanguageServer, parsed: ParsedDocument, entries: list[Entry],
    options: types.FormattingOptions,
) -> list[types.TextEdit]:
    """The edits laying ``entries`` out in the ``formatStyle`` setting's style,
    one indentation level being the editor's (its tab size, or a tab)."""
    unit = _indent_unit(options)
    edits = await ls.run_engine(
        layout_edits, entries, ls.settings.format_style, unit
    )
    return [lsp_text_edit(edit, parsed.lines) for edit in edits]


@SERVER.feature(
    types.TEXT_DOCUMENT_COMPLETION,
    types.CompletionOptions(trigger_characters=[":", "/"]),
)
async def completion(
    ls: AmrLanguageServer, params: types.CompletionParams
) -> types.CompletionList:
    if params.text_document.uri in ls.umr_uris:
        umr = await ls.umr(params.text_document.uri)
        text = ls.require_open(params.text_document.uri).source
        offset = umr.lines.offset(params.position)
        return umr_features.completion(umr, offset, text[umr.lines.shift:])
    parsed = await ls.parsed(params.text_document.uri)
    offset = parsed.offset(params.position)
    # typing just past a graph's end still belongs to that graph
    before = [e for e in parsed.corpus.entries if e.start <= offset]
    entry = parsed.entry_at(params.position) or (before[-1] if before else None)
    frames = ls.frames()
    return complete(
        entry, parsed.text, offset, parsed.lines, frames, _frame_names(frames)
    )


@lru_cache(maxsize=1)
def _frame_names(frames: FrameInventory) -> list[str]:
    return frames.concepts()


@SERVER.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
)
async def code_action(
    ls: AmrLanguageServer, params: types.CodeActionParams
) -> list[types.CodeAction]:
    uri = params.text_document.uri
    if uri in ls.umr_uris:
        umr = await ls.umr(uri)
        lines = umr.lines
        return umr_features.code_actions(
            umr, lines.offset(params.range.start), lines.offset(params.range.end)
        )
    analysis = await ls.analysis(uri)
    parsed = analysis.parsed
    start, end = parsed.offset(params.range.start), parsed.offset(params.range.end)
    actions = []
    for finding in analysis.findings:
        if finding.span.end < start or finding.span.start > end:
            continue
        fix = fix_for(parsed.corpus, finding)
        if fix is None:
            continue
        diagnostic = [
            d for d in analysis.diagnostics[VALIDATION_SOURCE]
            if d.code == finding.code
            and d.range == lsp_range(finding.span, parsed.lines)
        ]
        actions.append(
            types.CodeAction(
                title=fix.title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=diagnostic or None,
                is_preferred=True,
                edit=types.WorkspaceEdit(
                    changes={uri: [lsp_text_edit(e, parsed.lines) for e in fix.edits]}
                ),
            )
        )
    return actions



# -- drawings -----------------------------------------------------------------

@SERVER.feature(GRAPH_REQUEST)
async def graph(ls: AmrLanguageServer, params: Any) -> dict[str, Any] | None:
    """The graph under the cursor, its reference graph and the explanation."""
    request = graph_params(params)
    clock = time.perf_counter()
    analysis = await ls.analysis(request.uri)
    umr = None
    if request.uri in ls.umr_uris:  # its sentences' words, and its reference's
        own = await ls.umr(request.uri)
        if own.version != analysis.version:
            raise JsonRpcException("the document changed; try again",
                                   code=types.LSPErrorCodes.ContentModified)
        reference = analysis.reference
        umr = UmrSentences(
            own.sentences,
            reference.umr.sentences
            if reference is not None and reference.umr is not None
            else (),
        )
    waited = time.perf_counter() - clock
    answer = await ls.run_engine(
        ls.graph_views.answer, analysis, ls.comparer, request, umr
    )
    log.debug(
        "amr/graph %s v%s: analysis %d ms, drawing %d ms", request.uri,
        analysis.version, waited * 1000, (time.perf_counter() - clock - waited) * 1000,
    )
    return answer
