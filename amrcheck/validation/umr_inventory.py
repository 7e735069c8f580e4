"""UMR's inventories: roles, attribute values, document-level relations.

Facts of the format (UMR guidelines, the ÚFAL relation list and its
validator's value lists; ``../shared/UMR.md`` section 3), as data.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RoleKind:
    attribute: bool  # takes a constant, not a node
    repeatable: bool
    values: frozenset[str] = frozenset()


def _role(attribute: bool, repeatable: bool, values: str = "") -> RoleKind:
    return RoleKind(attribute, repeatable, frozenset(values.split()))


ASPECTS = (
    "habitual generic imperfective inceptive process atelic-process perfective state "
    "reversible-state irreversible-state inherent-state point-state activity "
    "undirected-activity directed-activity endeavor semelfactive undirected-endeavor "
    "directed-endeavor performance incremental-accomplishment "
    "nonincremental-accomplishment directed-achievement "
    "reversible-directed-achievement irreversible-directed-achievement"
)
MODAL_STRENGTHS = (
    "full-affirmative partial-affirmative neutral-affirmative neutral-negative "
    "partial-negative full-negative"
)

_PARTICIPANTS = (
    "actor affectee ARG0 ARG1 ARG2 ARG3 ARG4 ARG5 ARG6 beneficiary causer co-actor "
    "companion experiencer force goal instrument material recipient source start "
    "stimulus theme undergoer"
)
_SINGLE_MODIFIERS = (
    "age apprehensive calendar consist-of domain era extent frequency group li medium "
    "modal-predicate name ord range scale season subevent substitute subtraction "
    "timezone topic unit vocative weekday according-to comparison part-of-phraseme "
    "predicative-noun"
)
_REPEATABLE_MODIFIERS = (
    "anchor axis cause color concession concessive-condition condition configuration "
    "destination direction duration example manner mod orientation other-role part "
    "path place possessor pure-addition purpose quote reason result size temporal "
    "clausal-marker effect interjection parenthesis regard"
)
_SINGLE_ATTRIBUTES = (
    "century day dayperiod decade degree mode month polarity polite quarter value "
    "wiki year year2"
)

#: role (without ':' and '-of') -> its kind; ``:opN`` are handled apart
ROLES: dict[str, RoleKind] = {
    **{name: _role(False, False) for name in _PARTICIPANTS.split()},
    **{name: _role(False, False) for name in _SINGLE_MODIFIERS.split()},
    **{name: _role(False, True) for name in _REPEATABLE_MODIFIERS.split()},
    **{name: _role(True, False) for name in _SINGLE_ATTRIBUTES.split()},
    "quant": _role(True, True),
    "time": _role(True, True),
    "aspect": _role(True, False, ASPECTS),
    "modal-strength": _role(True, False, MODAL_STRENGTHS),
    "refer-person": _role(True, False, "1st 2nd 3rd 4th non-1st non-3rd"),
    "refer-number": _role(
        True, False, "singular non-singular dual trial paucal plural"
    ),
    "refer-definiteness": _role(True, False, "class"),
}
#: attributes whose value may also be a node (numbers, degrees, quantities)
NODE_OR_CONSTANT = frozenset({"quant", "degree", "time", "value", "polarity", "mode"})

#: discourse concepts: never events, no :aspect
DISCOURSE_CONCEPTS = frozenset(
    (
        "multi-sentence and or inclusive-disjunction exclusive-disjunction and-but "
        "consecutive additive and-unexpected and-contrast but-91 "
        "unexpected-co-occurrence-91 contrast-91 have-apprehensive-91 "
        "have-condition-91 "
        "have-pure-addition-91 have-substitution-91 have-concession-91 "
        "have-concessive-condition-91 have-subtraction-91"
    ).split()
)
#: rolesets that are records, not events
NON_EVENT_ROLESETS = frozenset(
    (
        "byline-91 cite-91 course-91 distribution-range-91 emit-sound-91 hyperlink-91 "
        "mean-91 proverb-91 publication-91 range-91 rate-entity-91 "
        "reference-illustration-91 score-on-scale-91 statistical-test-91 "
        "street-address-91 weather-91"
    ).split()
)

#: document-level relations by group
DOCUMENT_RELATIONS: dict[str, frozenset[str]] = {
    ":temporal": frozenset(
        ":before :after :contained :contains :overlap :depends-on".split()
    ),
    ":modal": frozenset(
        (
            ":modal :full-affirmative :partial-affirmative :strong-partial-affirmative "
            ":weak-partial-affirmative :neutral-affirmative "
            ":strong-neutral-affirmative "
            ":weak-neutral-affirmative :full-negative :partial-negative "
            ":strong-partial-negative :weak-partial-negative :neutral-negative "
            ":strong-neutral-negative :weak-neutral-negative :unspecified"
        ).split()
    ),
    ":coref": frozenset(
        ":same-entity :same-event :subset-of :contains :subset".split()
    ),
}
#: constants that may stand in document triples
DOCUMENT_CONSTANTS = frozenset(
    (
        "root author null-conceiver document-creation-time past-reference "
        "present-reference future-reference have-condition-91"
    ).split()
)
