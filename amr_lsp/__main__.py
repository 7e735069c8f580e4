"""Start the AMR language server: ``python -m amr_lsp [--tcp|--ws] [--port P]``.

stdio by default. Logs go to stderr (stdout carries the protocol).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence

from pygls.cli import start_server


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(format="%(levelname)s %(name)s: %(message)s")
    # AMR_LSP_LOG=DEBUG logs each analysis with its timings (pygls stays quiet:
    # at DEBUG it logs every message it sends)
    level = os.environ.get("AMR_LSP_LOG", "WARNING").upper()
    logging.getLogger("amr_lsp").setLevel(level)
    from .server import SERVER  # after logging: importing builds the server

    start_server(SERVER, list(argv) if argv is not None else None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
