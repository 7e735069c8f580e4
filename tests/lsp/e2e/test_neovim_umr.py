"""Neovim (headless) opens a real UMR file: diagnostics, outline, hover, an edit.

The file is ``english_umr-0003.umr`` of the UMR 3.0 English release;
Neovim does not know the ``umr`` file type, so the server recognises the
document by its ``.umr`` path. Skipped without ``nvim``.
"""

from __future__ import annotations

from pathlib import Path

from amrcheck.reading.umr import read_umr
from amrcheck.validation.umr import validate_umr
from tests.conftest import data_path

from .conftest import DEFAULT_OPTIONS, find
from .test_neovim import PRELUDE, pytestmark, run_neovim

__all__ = ["pytestmark"]

UMR_FILE = data_path("umr") / "english_umr-0003.umr"

SCRIPT = PRELUDE + r"""
local function codes()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(found, {code = d.code, lnum = d.lnum, col = d.col})
  end
  return found
end
vim.wait(20000, function() return #vim.diagnostic.get(bufnr) > 0 end, 20)
emit("opened", codes())

local document = {textDocument = vim.lsp.util.make_text_document_params(bufnr)}
local symbols = vim.lsp.buf_request_sync(bufnr, "textDocument/documentSymbol",
  document, 10000)
for _, response in pairs(symbols or {}) do
  local names = {}
  for _, symbol in ipairs(response.result or {}) do
    table.insert(names, symbol.name .. " " .. (symbol.detail or ""))
  end
  emit("outline", names)
end

local params = {
  textDocument = vim.lsp.util.make_text_document_params(bufnr),
  position = {line = LINE, character = CHARACTER},
}
local hover = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", params, 10000)
for _, response in pairs(hover or {}) do
  emit("hover", response.result and response.result.contents.value or response.err)
end

-- an aspect value that is not in UMR's inventory
local line = vim.api.nvim_buf_get_lines(bufnr, ASPECT, ASPECT + 1, false)[1]
vim.api.nvim_buf_set_lines(bufnr, ASPECT, ASPECT + 1, false,
  {(line:gsub(":aspect state", ":aspect stat"))})
local function flagged()
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == "U221" and d.lnum == ASPECT then return true end
  end
  return false
end
vim.wait(20000, flagged, 20)
emit("edited", codes())
vim.lsp.stop_client(client_id)
vim.cmd("qa!")
"""


def test_neovim_opens_a_umr_file(tmp_path: Path) -> None:
    text = UMR_FILE.read_text(encoding="utf-8")
    at = find(text, "s1t / taste-01")
    aspect = find(text, ":aspect state)")
    script = (
        SCRIPT.replace("ASPECT", str(aspect.line))
        .replace("LINE", str(at.line))
        .replace("CHARACTER", str(at.character))
    )
    events = run_neovim(tmp_path, script, DEFAULT_OPTIONS, UMR_FILE)
    assert "opened" in events, events["stderr"]
    expected = sorted(
        (f.code, f.span.line - 1, f.span.column - 1)
        for f in validate_umr(read_umr(UMR_FILE).sentences)
    )
    opened = sorted((d["code"], d["lnum"], d["col"]) for d in events["opened"])
    assert opened == expected
    outline = events["outline"]
    assert len(outline) == 9
    assert outline[0].startswith("snt1 Edmund Pope tasted freedom today")
    assert "**s1t** / taste-01 (snt1)" in events["hover"]
    assert "aligned to 3-3 “tasted”" in events["hover"]
    edited = {(d["code"], d["lnum"]) for d in events["edited"]}
    assert ("U221", aspect.line) in edited
    assert ("U221", aspect.line) not in {(c, n) for c, n, _ in expected}
