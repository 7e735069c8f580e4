"""Unit tests of amr_lsp.workspace: where a ``# ::reference`` header may point."""

from __future__ import annotations

from pathlib import Path

from amr_lsp.config import load_settings
from amr_lsp.references import ReferenceStore, choose_reference
from amr_lsp.workspace import ReadPolicy
from amrcheck import read_string

BODY = "# ::id a\n(a / b)\n"


def header(reference: str) -> str:
    return f"# ::reference {reference}\n{BODY}"


def test_symlinks_are_resolved_before_the_check(tmp_path: Path) -> None:
    ws, outside = tmp_path / "ws", tmp_path / "outside"
    ws.mkdir()
    outside.mkdir()
    (outside / "gold.amr").write_text(BODY)
    (ws / "link.amr").symlink_to(outside / "gold.amr")
    (ws / "sub").symlink_to(outside, target_is_directory=True)
    settings, _ = load_settings({})
    policy = ReadPolicy.build([ws], settings)
    document = ws / "doc.amr"
    for written in ("link.amr", "sub/gold.amr", "../outside/gold.amr"):
        choice = choose_reference(read_string(header(written)), document, ws, {})
        assert choice is not None and choice.path == outside / "gold.amr"
        refused = policy.header_refusal(choice.path, document, choice.written)
        assert refused is not None and "outside the workspace folders" in refused
    choice = choose_reference(read_string(header("link.amr")), document, ws, {})
    assert choice is not None
    assert policy.header_refusal(choice.path, document, choice.written) == (
        f"reference file {ws}/link.amr, a symbolic link to {outside}/gold.amr, is "
        "outside the workspace folders, so it is not read; to compare with it, add "
        f"{outside} (or the file) to the amrcheck.allowedReferencePaths setting"
    )


def test_a_workspace_behind_a_symlink_is_still_the_workspace(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "gold.amr").write_text(BODY)
    (tmp_path / "alias").symlink_to(tmp_path / "real", target_is_directory=True)
    policy = ReadPolicy.build([tmp_path / "alias"], load_settings({})[0])
    document = tmp_path / "alias" / "doc.amr"
    choice = choose_reference(read_string(header("gold.amr")), document, None, {})
    assert choice is not None
    assert policy.header_refusal(choice.path, document, choice.written) is None


def test_allowed_paths_files_and_folders(tmp_path: Path) -> None:
    settings, problems = load_settings(
        {"allowedReferencePaths": [str(tmp_path / "gold"), "~/corpora/x.amr",
                                   "relative/path"]}
    )
    assert problems == [
        "allowedReferencePaths: 'relative/path' is not an absolute path (or "
        "~/...); ignored"
    ]
    policy = ReadPolicy.build([tmp_path / "ws"], settings)
    document = tmp_path / "ws" / "doc.amr"
    assert policy.header_refusal(tmp_path / "gold" / "a" / "b.amr", document) is None
    home = Path("~/corpora/x.amr").expanduser()
    assert policy.header_refusal(home, document) is None
    assert policy.header_refusal(home.with_name("y.amr"), document) is not None
    assert policy.header_refusal(tmp_path / "goldish.amr", document) is not None


def test_settings_references_may_point_anywhere(tmp_path: Path) -> None:
    # only headers are confined; the references setting is the user's own
    (tmp_path / "gold.amr").write_text(BODY)
    mapping = {"*.amr": str(tmp_path / "gold.amr")}
    store = ReferenceStore()
    store.policy = ReadPolicy.build([tmp_path / "ws"], load_settings({})[0])
    document = tmp_path / "ws" / "doc.amr"
    choice = choose_reference(read_string(BODY), document, tmp_path / "ws", mapping)
    assert choice is not None and choice.origin == "*.amr"
    loaded = store.get(choice, document)
    assert loaded.problem is None and loaded.corpus is not None


def test_the_size_limit_is_a_setting(tmp_path: Path) -> None:
    (tmp_path / "gold.amr").write_text(BODY * 1000)  # 17 kB
    settings, problems = load_settings({"maxReferenceMegabytes": 1})
    assert problems == [] and settings.max_reference_megabytes == 1
    store = ReferenceStore()
    store.policy = ReadPolicy(folders=(tmp_path,), max_bytes=10_000)
    choice = choose_reference(read_string(header("gold.amr")), tmp_path / "d.amr",
                              tmp_path, {})
    assert choice is not None
    assert store.get(choice, tmp_path / "d.amr").problem == (
        f"cannot read reference file {tmp_path}/gold.amr: 17,000 bytes, more than "
        "the 10,000 bytes limit (setting amrcheck.maxReferenceMegabytes)"
    )
    store.policy = ReadPolicy(folders=(tmp_path,), max_bytes=20_000)
    assert store.get(choice, tmp_path / "d.amr").problem is None
    _, problems = load_settings({"maxReferenceMegabytes": 0})
    assert problems == ["maxReferenceMegabytes: must be >= 1 (default used)"]


def test_the_store_keeps_only_recent_files(tmp_path: Path) -> None:
    store = ReferenceStore(max_files=2)
    store.policy = ReadPolicy(folders=(tmp_path,))
    loaded = []
    for name in ("a", "b", "c", "a"):
        (tmp_path / f"{name}.amr").write_text(BODY)
        choice = choose_reference(read_string(header(f"{name}.amr")),
                                  tmp_path / "d.amr", tmp_path, {})
        assert choice is not None
        loaded.append(store.get(choice, tmp_path / "d.amr"))
    # "a" was dropped when "c" came, so it is read again (a new generation)
    assert loaded[3] is not loaded[0]
    assert loaded[3].generation > loaded[2].generation
