"""The network: our encoder against transformers' BertModel; blocked products."""

from __future__ import annotations

import os

import pytest

pytest.importorskip(
    "torch", reason="the learned extra: pip install 'amrcheck[learned]'"
)

import torch  # noqa: E402

from amrcheck.learned.backbone import (  # noqa: E402
    encoder_files,
    encoder_shape,
    load_backbone,
)
from amrcheck.learned.model import BLOCK_ROWS, Backbone, blocked_linear  # noqa: E402
from amrcheck.learned.vocabulary import EncoderVocabulary, default_relations  # noqa: E402


@pytest.mark.slow
def test_our_encoder_forward_is_transformers_bert() -> None:
    os.environ["HF_HUB_OFFLINE"] = "1"
    transformers = pytest.importorskip("transformers")
    files = encoder_files()
    theirs = transformers.BertModel.from_pretrained(
        str(files.folder), local_files_only=True, attn_implementation="eager"
    ).eval()
    ours = Backbone(encoder_shape(files))
    load_backbone(ours, files)
    ours.eval()
    vocabulary = EncoderVocabulary(files.tokenizer, default_relations())
    sentence = vocabulary.words("the boy wants to go home")
    words = [vocabulary.cls, *sentence, vocabulary.sep]
    ids = torch.tensor([words, words[:4] + [vocabulary.pad] * (len(words) - 4)])
    mask = torch.tensor([[1] * len(words), [1] * 4 + [0] * (len(words) - 4)])
    positions = torch.arange(len(words)).expand(2, -1)
    with torch.inference_mode():
        expected = theirs(input_ids=ids, attention_mask=mask).last_hidden_state
        got = ours(
            ours.word_embeddings(ids),
            positions,
            torch.zeros_like(ids),
            mask == 0,
        )
    assert torch.allclose(got[0], expected[0], atol=1e-5)
    assert torch.allclose(got[1, :4], expected[1, :4], atol=1e-5)


def test_blocked_products_do_not_depend_on_the_other_rows() -> None:
    torch.manual_seed(0)
    weight, bias = torch.randn(64, 48), torch.randn(64)
    rows = torch.randn(3 * BLOCK_ROWS + 5, 48)
    together = blocked_linear(rows, weight, bias)
    alone = blocked_linear(rows[7:8], weight, bias)
    assert torch.equal(together[7:8], alone)
    assert torch.allclose(together, torch.nn.functional.linear(rows, weight, bias))
