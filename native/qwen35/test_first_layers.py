"""first_layers: a view of a checkpoint's first layers, and make_checkpoint's real layer pattern and context length."""

import json

import pytest

from qwen35.first_layers import first_layers
from qwen35.make_checkpoint import make_checkpoint


@pytest.fixture(scope="module")
def eight_layers(tmp_path_factory):
    return make_checkpoint(tmp_path_factory.mktemp("first-layers") / "hf", 11, "causal", layers=8, interval=4, context_length=8448)


def test_real_pattern_and_longer_context(eight_layers):
    config = json.loads((eight_layers / "config.json").read_text())
    assert config["layer_types"] == ["linear_attention"] * 3 + ["full_attention"] + ["linear_attention"] * 3 + ["full_attention"]
    assert config["max_position_embeddings"] == 8448


def test_view_keeps_the_first_layers_and_links_the_weights(eight_layers, tmp_path):
    view = first_layers(eight_layers, tmp_path / "view", 4)
    config = json.loads((view / "config.json").read_text())
    assert config["num_hidden_layers"] == 4
    assert config["layer_types"] == ["linear_attention"] * 3 + ["full_attention"]
    assert (view / "model.safetensors").is_symlink()
    assert (view / "model.safetensors").resolve() == (eight_layers / "model.safetensors").resolve()
    # The original is left as it was.
    assert json.loads((eight_layers / "config.json").read_text())["num_hidden_layers"] == 8


def test_view_refuses_a_depth_the_checkpoint_lacks(eight_layers, tmp_path):
    with pytest.raises(ValueError, match="between 1 and 7"):
        first_layers(eight_layers, tmp_path / "too-deep", 8)
    with pytest.raises(ValueError, match="no config.json"):
        first_layers(tmp_path, tmp_path / "none", 2)


def test_interval_must_divide_the_layers(tmp_path):
    with pytest.raises(ValueError, match="multiple of 4"):
        make_checkpoint(tmp_path / "bad", 1, "causal", layers=6, interval=4)
