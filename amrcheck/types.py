"""Type aliases shared by every layer."""

from __future__ import annotations

Variable = str
Role = str  # with its leading colon, as written: ":ARG0-of"
Constant = str  # as written: quoted strings keep their quotes
Triple = tuple[str, Role, str]  # (source, role, target)
Offsets = tuple[int, int, int, int]  # role start/end, target start/end

INSTANCE: Role = ":instance"
