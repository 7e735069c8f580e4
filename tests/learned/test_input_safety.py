"""Issue 20: the files AMRSim reads (weights, training state, BAMBOO scores)
are read like any input: regular files only, and no code runs on loading."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from amrcheck.errors import InputError, MetricError, RefusedInputError
from tests.special_files import fifo

pytest.importorskip(
    "torch", reason="the learned extra: pip install 'amrcheck[learned]'"
)

import torch  # noqa: E402

from amrcheck.learned.checkpoint import (  # noqa: E402
    SHIPPED_WEIGHTS,
    load_checkpoint,
    save_checkpoint,
)
from amrcheck.training.amrsim import _Loop, bamboo_train_pairs  # noqa: E402


def test_weights_are_read_from_regular_files_only(tmp_path: Path) -> None:
    with fifo(tmp_path / "weights.safetensors") as pipe:
        with pytest.raises(MetricError) as caught:
            load_checkpoint(pipe.path)
        assert pipe.untouched()
    assert str(caught.value) == (
        f"{pipe.path}: cannot read AMRSim weights: not a regular file but a named "
        "pipe (FIFO); amrcheck reads regular files only"
    )
    with pytest.raises(MetricError, match="not a regular file but a character"):
        load_checkpoint("/dev/zero")
    junk = tmp_path / "junk.safetensors"
    junk.write_bytes(b"\xff" * 8 + b"{}")
    with pytest.raises(MetricError, match="cannot read AMRSim weights: not a "
                       "safetensors file"):
        load_checkpoint(junk)


def test_weights_read_through_the_safe_opener_round_trip(tmp_path: Path) -> None:
    shipped = load_checkpoint(SHIPPED_WEIGHTS)
    assert shipped.training  # the metadata, parsed from the header
    copy = tmp_path / "copy.safetensors"
    save_checkpoint(copy, shipped)
    again = load_checkpoint(copy)
    assert again.settings == shipped.settings
    assert again.training == shipped.training
    assert again.parameters.keys() == shipped.parameters.keys()
    for name, tensor in shipped.parameters.items():
        assert torch.equal(tensor, again.parameters[name])


class Payload:
    """Unpickling this would run code (os.system in a real attack)."""

    ran = False

    def __reduce__(self):
        return (Payload._run, ())

    @staticmethod
    def _run() -> None:
        Payload.ran = True


def _loop(path: Path) -> _Loop:
    return _Loop(path, {}, 1, (1, 1), {}, random.Random(0))


def test_a_training_state_runs_no_code_and_is_a_regular_file(tmp_path: Path) -> None:
    state = tmp_path / "run.state"
    torch.save({"settings": {}, "evil": Payload()}, state)
    with pytest.raises(InputError, match="not a training checkpoint of amrcheck"):
        _loop(state).resume()
    assert not Payload.ran
    with fifo(tmp_path / "pipe.state") as pipe:
        with pytest.raises(RefusedInputError, match="not a regular file but a named"):
            _loop(pipe.path).resume()
        assert pipe.untouched()


def test_bamboo_train_scores_are_read_from_regular_files_only(tmp_path: Path) -> None:
    folder = tmp_path / "sts"
    folder.mkdir()
    graph = "# ::id 1\n(w / want-01)\n\n"
    (folder / "src.train.amr").write_text(graph)
    (folder / "tgt.train.amr").write_text(graph)
    with fifo(folder / "train.y") as pipe:
        with pytest.raises(RefusedInputError, match="train.y: not a regular file"):
            bamboo_train_pairs([folder])
        assert pipe.untouched()
