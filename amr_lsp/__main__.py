"""Start the AMR language server: ``python -m amr_lsp [--tcp|--ws] [--port P]``.

stdio by default. Logs go to stderr (stdout carries the protocol).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence

from pygls.cli import start_server

from amrcheck.metrics import stay_plain


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(format="%(levelname)s %(name)s: %(message)s")
    # AMR_LSP_LOG=DEBUG logs each analysis with its timings (pygls stays quiet:
    # at DEBUG it logs every message it sends)
    level = os.environ.get("AMR_LSP_LOG", "WARNING").upper()
    logging.getLogger("amr_lsp").setLevel(level)
    from .server import SERVER  # after logging: importing builds the server

    # every keystroke is answered at once: never stop to load (or, on a
    # machine's first run, compile) the compiled search; plain is quick
    # enough for an editor's one-graph re-scores
    stay_plain()

    start_server(SERVER, list(argv) if argv is not None else None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
