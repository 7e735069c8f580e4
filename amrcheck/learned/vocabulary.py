"""Token ids for the encoder: its subword tokenizer, plus one added token per role.

Layer: engine (needs the ``tokenizers`` library of the ``learned`` extra).
Relations are never split into subwords (AMRSim §3.2.2): each role of the
AMR role inventory (penman's AMR model, numbered roles expanded) gets a
token of its own after the encoder's vocabulary, whose embedding is
trained. Concepts and constants go through the encoder's own WordPiece
tokenizer, read from the packaged model's ``tokenizer.json`` (no
padding, no truncation: windows are made by :mod:`.graph_tokens`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from penman.models.amr import model as _amr_model

#: how far the numbered role patterns of the AMR model are expanded
_NUMBERED = {"ARG[0-9]": range(10), "op[0-9]+": range(1, 21), "snt[0-9]+": range(1, 11)}


def default_relations() -> list[str]:
    """The roles that get added tokens: every AMR role, lower case, no colon.

    Example:
        >>> roles = default_relations()
        >>> roles[:3], len(roles), "op20" in roles
        (['accompanier', 'age', 'arg0'], 120, True)
    """
    roles: set[str] = set()
    for pattern in _amr_model.roles:
        name = pattern.lstrip(":")
        if name in _NUMBERED:
            stem = re.sub(r"\[.*", "", name)
            roles.update(f"{stem}{i}".lower() for i in _NUMBERED[name])
        else:
            roles.add(name.lower())
    return sorted(roles)


class EncoderVocabulary:
    """Subword ids from the encoder's tokenizer and ids of the added role tokens.

    Role ``k`` of ``relations`` has id ``base_size + k``.
    """

    def __init__(self, tokenizer_file: Path, relations: Sequence[str]) -> None:
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(tokenizer_file))
        tokenizer.no_padding()
        tokenizer.no_truncation()
        self._tokenizer = tokenizer
        self.base_size: int = tokenizer.get_vocab_size()
        self.relations = list(relations)
        self._relation_ids = {
            role: self.base_size + k for k, role in enumerate(self.relations)
        }
        self.cls = self._special("[CLS]")
        self.sep = self._special("[SEP]")
        self.pad = self._special("[PAD]")
        self.unk = self._special("[UNK]")
        self._words: dict[str, tuple[int, ...]] = {}

    def _special(self, token: str) -> int:
        found = self._tokenizer.token_to_id(token)
        if found is None:
            raise ValueError(f"the encoder's tokenizer has no {token} token")
        return int(found)

    def words(self, text: str) -> tuple[int, ...]:
        """Subword ids of ``text``; ``[UNK]`` for text that has none (``""``)."""
        ids = self._words.get(text)
        if ids is None:
            encoded = self._tokenizer.encode(text, add_special_tokens=False).ids
            ids = self._words[text] = tuple(encoded) or (self.unk,)
        return ids

    def relation(self, role: str) -> int | None:
        return self._relation_ids.get(role)
