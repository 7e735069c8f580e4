"""Entry point of the language server: ``python -m amr_lsp``.

Only a stub for now: the server itself is scheduled in its own issue.
"""

from __future__ import annotations

import sys


def main() -> int:
    print(
        "amr_lsp: the language server is not implemented yet "
        "(see the project's issue 'The language server').",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
