"""PENMAN's tokens, each pattern written once.

The reader (:mod:`._parse`) builds its tokenizers from the lexical
classes here; the validator, the quick fixes and the editor's completion
and rename read roles, variables and constants with the compiled patterns
below, so what counts as a role or a variable is decided in one place.
"""

from __future__ import annotations

import re

# -- lexical classes (regex source, combined by the reader's tokenizers) -------
#: a quoted string, escapes allowed, on one line
STRING = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
#: a role: ``:`` and what follows up to a delimiter (``:`` alone included)
ROLE = r':[^\s"()/:~]*'
#: a variable, concept or unquoted constant
SYMBOL = r'[^\s"()/:~]+'
#: an alignment: ``~e.3``, ``~3,4``
ALIGNMENT = r"~(?:[a-zA-Z]\.?)?[0-9]+(?:,[0-9]+)*"

# -- whole tokens --------------------------------------------------------------
#: what a variable may be named: a symbol that is not a role, a number or a
#: constant (``^`` is kept out: it marks a constant in some corpora)
VARIABLE_NAME_RE = re.compile(r"[A-Za-z_][^\s()/:~\"^]*")
#: a numbered frame argument, ``:ARG0`` or inverted ``:ARG0-of``: the label
#: and whether it is inverted
FRAME_ARGUMENT_RE = re.compile(r":(ARG[0-9])(-of)?")
#: a numbered-role prefix and its index, well formed or not (``:op``,
#: ``:ARGx``, ``:snt01``)
NUMBERED_ROLE_RE = re.compile(r":(ARG|op|snt)([0-9]*|[A-Za-z])")
#: a number constant as AMR writes it unquoted
NUMBER_RE = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
#: a number written inside quotes (``"1,000"``), which AMR writes unquoted
QUOTED_NUMBER_RE = re.compile(r'"\s*[-+]?[0-9]+(?:[.,][0-9]+)*\s*"')
#: a sense suffix after a lemma (``-01`` of ``want-01``)
SENSE_SUFFIX_RE = re.compile(r"(?<=[a-z])-\d+$")

# -- unfinished text (the editor, while the annotator types) ------------------
#: the scanner's tokens for text that need not parse: strings (closed or
#: not), comments and parentheses; everything else is passed over
BRACKET_SCAN_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|[()]')
#: a node's head, ``(variable / concept``: the variable and the concept
NODE_HEAD_RE = re.compile(r"\(\s*([^\s/()\"]+)\s*/\s*([^\s()\"~]+)")
#: the token being typed at the end of a text (possibly empty)
PARTIAL_TOKEN_RE = re.compile(r'[^\s()/"]*$')
#: a role at the end of a text whose target is not begun
OPEN_ROLE_RE = re.compile(r":[^\s()]+$")
