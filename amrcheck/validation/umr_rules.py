"""The UMR rule table: every code ``amrcheck check`` reports on UMR files.

Plain data, like :mod:`amrcheck.validation.rules` for AMR; the checks live
in :mod:`amrcheck.validation.umr`. Codes are stable. Families (a prefix
selects a family, e.g. ``--select U3``):

* ``U0xx`` the file and its layout (line ends, Unicode, blocks, headings),
* ``U1xx`` the token block (sentence number, words, interlinear rows),
* ``U2xx`` the sentence-level graph (syntax, variables, roles, values, events),
* ``U3xx`` the alignment block,
* ``U4xx`` the document-level block (syntax, nodes, relations, temporal, coreference).

``peer`` names the test ids of the ÚFAL validator (``validate.py``) that
check the same thing; the bench compares findings through it, and
``docs/umr.md`` lists both.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..findings import Severity


@dataclass(frozen=True, slots=True)
class UmrRule:
    code: str
    severity: Severity
    summary: str
    peer: tuple[str, ...] = ()


_E = Severity.ERROR
_W = Severity.WARNING

UMR_RULES: dict[str, UmrRule] = {
    rule.code: rule
    for rule in (
        UmrRule("U001", _E, "trailing white space", ("trailing-whitespace",)),
        UmrRule("U002", _E, "text not in Unicode NFC", ("unicode-normalization",)),
        UmrRule("U003", _E, "CRLF line end (LF only)", ("non-unix-newline",)),
        UmrRule("U004", _E, "a line that fits no kind of its block", ("invalid-line",)),
        UmrRule(
            "U005",
            _E,
            "comment line after content inside a block",
            ("misplaced-comment",),
        ),
        UmrRule(
            "U006",
            _E,
            "block without its heading line",
            ("missing-heading-sentence-level", "missing-heading-alignment"),
        ),
        UmrRule(
            "U007",
            _E,
            "block heading without an empty line before it",
            ("misplaced-comment",),
        ),
        UmrRule(
            "U008",
            _E,
            "empty line inside a block or too many empty lines",
            ("extra-empty-line", "too-few-blocks", "too-many-blocks"),
        ),
        UmrRule(
            "U009",
            _E,
            "sentence not followed by two empty lines",
            ("missing-empty-line", "too-many-blocks"),
        ),
        UmrRule(
            "U010", _E, "sentence without one of its four blocks", ("too-few-blocks",)
        ),
        UmrRule(
            "U011", _E, "a block heading repeated in one sentence", ("too-many-blocks",)
        ),
        UmrRule("U101", _E, "missing '# :: sntN' line", ("missing-sent-id",)),
        UmrRule("U102", _E, "more than one '# :: sntN' line", ("multiple-sent-id",)),
        UmrRule(
            "U103",
            _E,
            "sentence number used twice in the file",
            ("non-unique-sent-id",),
        ),
        UmrRule("U104", _W, "sentence number is not the sentence's position"),
        UmrRule("U105", _E, "missing 'Words:' row", ("missing-words", "missing-ilg")),
        UmrRule(
            "U106",
            _W,
            "tokens on the '# :: sntN' line (UMR 1.0 form)",
            ("tokens-in-sent-id-comment",),
        ),
        UmrRule("U107", _E, "'Index:' row is not 1 2 ... n", ("spurious-index",)),
        UmrRule(
            "U108",
            _E,
            "row length does not match its reference row",
            (
                "word-gloss-mismatch",
                "morpheme-word-mismatch",
                "morpheme-gloss-mismatch",
                "missing-morphemes",
                "sentence-word-mismatch",
            ),
        ),
        UmrRule(
            "U109",
            _E,
            "unknown interlinear row header",
            ("invalid-ilg", "invalid-line"),
        ),
        UmrRule(
            "U110",
            _W,
            "interlinear row header outside the ÚFAL format",
            ("obsolete-ilg", "invalid-line"),
        ),
        UmrRule("U111", _W, "interlinear row repeated", ("duplicate-ilg",)),
        UmrRule(
            "U201",
            _E,
            "unbalanced parentheses: '(' not closed",
            ("missing-closing-bracket",),
        ),
        UmrRule(
            "U202",
            _E,
            "unbalanced parentheses: unexpected ')'",
            ("extra-closing-bracket", "premature-closing-bracket"),
        ),
        UmrRule(
            "U203",
            _E,
            "unterminated string",
            ("invalid-sentence-level", "missing-closing-bracket"),
        ),
        UmrRule(
            "U204", _E, "missing concept", ("missing-slash", "missing-concept-string")
        ),
        UmrRule("U205", _E, "missing role target", ("missing-node-definition",)),
        UmrRule(
            "U206",
            _E,
            "unexpected token in the graph",
            ("invalid-sentence-level", "extra-opening-bracket"),
        ),
        UmrRule(
            "U207",
            _E,
            "more than one graph in the sentence level block",
            ("premature-closing-bracket",),
        ),
        UmrRule(
            "U210",
            _E,
            "variable not of the form s<N><letters><digits>",
            ("missing-variable", "invalid-line"),
        ),
        UmrRule(
            "U211",
            _E,
            "variable defined twice in the document",
            ("non-unique-node-id",),
        ),
        UmrRule(
            "U212",
            _E,
            "reference to a variable not defined before it",
            ("unknown-node-id",),
        ),
        UmrRule(
            "U213",
            _E,
            "reference to a variable of another sentence",
            ("cross-sentence-reference",),
        ),
        UmrRule(
            "U214", _E, "cycle (not through :quote or :modal-predicate)", ("cycle",)
        ),
        UmrRule("U215", _W, "variable numbered for another sentence"),
        UmrRule("U220", _E, "role not in UMR's inventory", ("unknown-relation",)),
        UmrRule(
            "U221", _E, "attribute value not in UMR's inventory", ("unexpected-value",)
        ),
        UmrRule(
            "U222",
            _E,
            "a relation with a constant, or a name :opN not a string",
            ("unexpected-value",),
        ),
        UmrRule(
            "U223",
            _E,
            "atomic value with uppercase letters or '_'",
            ("value-wrong-chars",),
        ),
        UmrRule(
            "U224",
            _E,
            "non-repeatable role repeated under one node",
            ("repeated-relation",),
        ),
        UmrRule("U225", _E, ":opN without :op(N-1)", ("skipped-op-relation",)),
        UmrRule(
            "U226",
            _W,
            "name node without :name parent or :op1, or with other roles",
            (
                "missing-incoming-name",
                "missing-outgoing-name",
                "wrong-incoming-name",
                "wrong-outgoing-name",
            ),
        ),
        UmrRule("U230", _E, "event without :aspect", ("missing-attribute",)),
        UmrRule(
            "U231",
            _E,
            ":aspect or :modal-strength on a non-event",
            ("unexpected-attribute",),
        ),
        UmrRule(
            "U232",
            _W,
            ":modal-strength in the sentence graph",
            ("sentence-level-modal-strength",),
        ),
        UmrRule(
            "U301",
            _E,
            "malformed alignment line",
            ("invalid-alignment", "invalid-token-range", "missing-variable"),
        ),
        UmrRule(
            "U302",
            _E,
            "alignment of a variable that is not a node of the sentence",
            ("unknown-node-id", "cross-sentence-alignment"),
        ),
        UmrRule("U303", _E, "node aligned twice", ("duplicate-alignment",)),
        UmrRule("U304", _E, "node without an alignment line", ("missing-alignment",)),
        UmrRule(
            "U305",
            _E,
            "token ranges not ascending with gaps, or a > b",
            ("invalid-token-range",),
        ),
        UmrRule("U306", _E, "0-0 combined with other ranges", ("invalid-token-range",)),
        UmrRule("U307", _E, "token index beyond the words", ("invalid-token-index",)),
        UmrRule("U308", _E, "-1--1 alignment (UMR 1.0)", ("invalid-token-range",)),
        UmrRule("U309", _W, "word aligned to no node", ("unaligned-token",)),
        UmrRule(
            "U310", _W, "word aligned to more than one node", ("overlapping-alignment",)
        ),
        UmrRule(
            "U401",
            _E,
            "document level block syntax",
            ("invalid-document-level", "missing-closing-bracket"),
        ),
        UmrRule(
            "U402",
            _E,
            "document node not s<N>s0 / sentence",
            ("missing-sentence-concept", "invalid-document-level"),
        ),
        UmrRule(
            "U403",
            _E,
            "unknown node or constant in a document triple",
            ("unknown-node-id", "invalid-document-level"),
        ),
        UmrRule(
            "U404",
            _E,
            "document triple names a node of a later sentence",
            ("unknown-node-id",),
        ),
        UmrRule(
            "U405",
            _E,
            "document triple without a node of its sentence",
            ("misplaced-document-relation",),
        ),
        UmrRule(
            "U406",
            _E,
            "unknown document-level group",
            ("unknown-document-relation-group",),
        ),
        UmrRule(
            "U407",
            _E,
            "relation unknown in its document-level group",
            ("unknown-document-relation",),
        ),
        UmrRule("U408", _E, "event without a temporal triple", ("missing-temporal",)),
        UmrRule(
            "U409",
            _E,
            "temporal relations contradict each other",
            ("temporal-mismatch",),
        ),
        UmrRule(
            "U410",
            _E,
            "coreference of an entity with an event",
            ("coref-entity-event-mismatch",),
        ),
        UmrRule(
            "U411",
            _E,
            "coreferent nodes with different :wiki",
            ("coref-wiki-mismatch",),
        ),
    )
}
