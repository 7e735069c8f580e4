"""A real editor as the client: Neovim (headless) opens, hovers and edits a file.

Neovim 0.7 (Debian's) has no ``vim.lsp.start``: the script uses
``vim.lsp.start_client`` and ``vim.lsp.buf_attach_client``.
``scripts/install-test-editors.sh`` installs it; without ``nvim`` the
test is skipped.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import ANNOTATION, DEFAULT_OPTIONS, LSP_DATA, find

NVIM = shutil.which("nvim")

pytestmark = pytest.mark.skipif(
    NVIM is None,
    reason="nvim not installed (run scripts/install-test-editors.sh)",
)

#: start the server on the buffer; ``emit`` prints one event as a JSON line
PRELUDE = r"""
local function emit(kind, value)
  io.stdout:write(vim.fn.json_encode({kind = kind, value = value}) .. "\n")
end
local bufnr = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = "amr_lsp",
  cmd = {PYTHON, "-m", "amr_lsp"},
  root_dir = ROOT,
  init_options = OPTIONS,
})
vim.lsp.buf_attach_client(bufnr, client_id)
"""

SCRIPT = PRELUDE + r"""
local function diagnostics()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(found, {source = d.source, code = d.code, lnum = d.lnum, col = d.col})
  end
  return found
end
-- the differences of the graph on line GRAPH_LINE (one diagnostic per graph)
local function has_diff()
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == "diff" and d.lnum == GRAPH_LINE then return true end
  end
  return false
end

vim.wait(20000, has_diff, 20)
emit("opened", diagnostics())

local params = {
  textDocument = vim.lsp.util.make_text_document_params(bufnr),
  position = {line = LINE, character = CHARACTER},
}
local hover = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", params, 10000)
for _, response in pairs(hover or {}) do
  emit("hover", response.result and response.result.contents.value or response.err)
end

-- type the reference's concept over the annotator's one
local line = vim.api.nvim_buf_get_lines(bufnr, LINE, LINE + 1, false)[1]
vim.api.nvim_buf_set_lines(bufnr, LINE, LINE + 1, false,
  {(line:gsub("beautiful", "magnificent"))})
vim.wait(20000, function() return not has_diff() end, 20)
emit("edited", diagnostics())

-- Neovim's own code lens client: it asks for the lenses, then resolves
-- each one (the server sends ranges only) and keeps the titles
vim.lsp.codelens.refresh()
local function resolved()
  local lenses = vim.lsp.codelens.get(bufnr)
  if #lenses == 0 then return false end
  for _, lens in ipairs(lenses) do
    if not lens.command then return false end
  end
  return true
end
vim.wait(20000, resolved, 20)
local titles = {}
for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
  table.insert(titles, lens.command and lens.command.title or "unresolved")
end
emit("lenses", titles)
vim.lsp.stop_client(client_id)
vim.cmd("qa!")
"""


def run_neovim(
    tmp_path: Path, script: str, options: dict[str, Any], path: Path = ANNOTATION
) -> dict[str, Any]:
    """Run the Lua ``script`` in headless Neovim on ``path`` (PYTHON,
    ROOT and OPTIONS filled in); its events by kind."""
    script = (
        script.replace("PYTHON", json.dumps(sys.executable))
        .replace("ROOT", json.dumps(str(LSP_DATA)))
        .replace("OPTIONS", _lua_table(options))
    )
    (tmp_path / "check.lua").write_text(script, encoding="utf-8")
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        **{f"XDG_{k}_HOME": str(tmp_path / k.lower())
           for k in ("CONFIG", "DATA", "STATE", "CACHE")},
    }
    assert NVIM is not None
    done = subprocess.run(
        [NVIM, "--headless", "--clean", "-i", "NONE", "-c",
         f"luafile {tmp_path / 'check.lua'}", str(path)],
        capture_output=True, text=True, timeout=60, env=env, check=False,
    )
    events = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            event = json.loads(line)
            events[event["kind"]] = event["value"]
    events["stderr"] = done.stderr
    return events


def test_neovim_opens_hovers_and_edits(tmp_path: Path) -> None:
    text = ANNOTATION.read_text(encoding="utf-8")
    at = find(text, "beautiful")
    graph = find(text, "(s / see-01")  # lpp_1943.2, whose concept differs
    script = (
        SCRIPT.replace("GRAPH_LINE", str(graph.line))
        .replace("LINE", str(at.line))
        .replace("CHARACTER", str(at.character))
    )
    events = run_neovim(tmp_path, script, DEFAULT_OPTIONS)
    stderr = events.pop("stderr")
    assert set(events) == {"opened", "hover", "edited", "lenses"}, (events, stderr)
    opened = {(d["source"], d["code"], d["lnum"], d["col"]) for d in events["opened"]}
    assert ("amrcheck-diff", "diff", graph.line, graph.character) in opened
    # ":mod 1" of lpp_1943.1 numbers a chapter, as the guidelines do: no W402
    assert not [d for d in opened if d[0] == "amrcheck"]
    assert "Aligned to reference node **(m / magnificent)**" in events["hover"]
    edited = {(d["code"], d["lnum"]) for d in events["edited"]}
    assert ("diff", graph.line) not in edited
    assert len(events["lenses"]) == 8
    assert events["lenses"][1].startswith("smatch 1.00 · P 1.00 R 1.00")
    assert "unresolved" not in events["lenses"]


LOW_SCORES_SCRIPT = PRELUDE + r"""
local function low_scores()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == "low-score" then
      table.insert(found, {lnum = d.lnum, message = d.message,
                           severity = d.severity, source = d.source})
    end
  end
  return found
end
vim.wait(20000, function() return #low_scores() > 0 end, 20)
emit("low", low_scores())

-- the outline Neovim would show (e.g. in a symbols picker): names and scores
local document = {textDocument = vim.lsp.util.make_text_document_params(bufnr)}
local symbols = vim.lsp.buf_request_sync(
  bufnr, "textDocument/documentSymbol", document, 10000)
for _, response in pairs(symbols or {}) do
  local found = {}
  for _, symbol in ipairs(response.result or {}) do
    table.insert(found, {name = symbol.name, detail = symbol.detail})
  end
  emit("symbols", found)
end

-- what a mapping to the next low score would run, from the top
local command = {command = "amrcheck.nextLowScore",
                 arguments = {vim.uri_from_bufnr(bufnr), 0, 0}}
local next_low = vim.lsp.buf_request_sync(
  bufnr, "workspace/executeCommand", command, 10000)
for _, response in pairs(next_low or {}) do
  emit("next", response.result or response.err)
end
vim.lsp.stop_client(client_id)
vim.cmd("qa!")
"""


def test_neovim_shows_low_scores_and_scores_in_symbols(tmp_path: Path) -> None:
    """Issue 22 in Neovim 0.7: low-score warnings, scored document symbols,
    and the next graph below the threshold."""
    options = {**DEFAULT_OPTIONS, "lowScoreThreshold": 0.98}
    events = run_neovim(tmp_path, LOW_SCORES_SCRIPT, options)
    stderr = events.pop("stderr")
    assert set(events) == {"low", "symbols", "next"}, (events, stderr)
    text = ANNOTATION.read_text(encoding="utf-8")
    # lpp_1943.2, .4 and .5 (smatch 0.9677, 0.9091, 0.9756), each on its first line
    assert [(d["lnum"], d["message"]) for d in events["low"]] == [
        (find(text, "(s / see-01").line, "smatch 0.97 < 0.98"),
        (find(text, "(b / be-located-at-91").line, "smatch 0.91 < 0.98"),
        (find(text, "(s2 / say-01").line, "smatch 0.9756 < 0.98"),
    ]
    assert {(d["source"], d["severity"]) for d in events["low"]} == {
        ("amrcheck-score", 2)  # vim.diagnostic.severity.WARN
    }
    details = {s["name"]: s["detail"] for s in events["symbols"]}
    assert len(details) == 8
    assert details["lpp_1943.1"] == "smatch 1.00 · Chapter 1 ."
    assert details["lpp_1943.4"] == "smatch 0.91 · Here is a copy of the drawing ."
    assert events["next"]["id"] == "lpp_1943.2"
    assert events["next"]["line"] == find(text, "(s / see-01").line


def _lua_table(value: object) -> str:
    """A JSON value as a Lua table constructor."""
    if isinstance(value, dict):
        items = ", ".join(
            f"[{json.dumps(k)}] = {_lua_table(v)}" for k, v in value.items()
        )
        return "{" + items + "}"
    return json.dumps(value)
