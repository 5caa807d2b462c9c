"""grow.py: the grown checkpoint has a copy after each full-attention layer, computes exactly what
the original did, and the copies can still learn (their zeroed outputs get gradients)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file
from transformers import Qwen3_5MoeForCausalLM

from world_model.conftest import TINY_IDS as IDS

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def original(tiny_checkpoint):
    return tiny_checkpoint


def grow(source: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "world_model.grow", "--from", str(source), "--out", str(out)], capture_output=True, text=True)


def test_grown_checkpoint_copies_each_full_attention_layer_and_computes_the_same(original, tmp_path):
    result = grow(original, tmp_path / "grown")
    assert result.returncode == 0, result.stderr
    config = json.loads((tmp_path / "grown" / "config.json").read_text())
    assert config["num_hidden_layers"] == 10
    assert "".join("A" if t == "full_attention" else "L" for t in config["layer_types"]) == "LLLAALLLAA"

    before, after = load_file(str(next(original.glob("*.safetensors")))), load_file(str(tmp_path / "grown" / "model.safetensors"))
    # Layer 4 of the grown model is the copy of layer 3: same attention, zero output projections.
    assert torch.equal(after["model.layers.4.self_attn.q_proj.weight"], before["model.layers.3.self_attn.q_proj.weight"])
    assert not after["model.layers.4.self_attn.o_proj.weight"].any()
    assert not after["model.layers.4.mlp.shared_expert.down_proj.weight"].any()
    # Layers after the copy moved down by one, untouched.
    assert torch.equal(after["model.layers.5.linear_attn.in_proj_qkv.weight"], before["model.layers.4.linear_attn.in_proj_qkv.weight"])
    assert torch.equal(after["model.layers.3.self_attn.o_proj.weight"], before["model.layers.3.self_attn.o_proj.weight"])

    grown = Qwen3_5MoeForCausalLM.from_pretrained(str(tmp_path / "grown"), dtype=torch.float32)
    ids = torch.randint(3, 256, (1, 40))
    with torch.no_grad():
        reference = Qwen3_5MoeForCausalLM.from_pretrained(str(original), dtype=torch.float32).eval()(ids).logits
        assert torch.allclose(grown.eval()(ids).logits, reference, atol=1e-5)
    # A zero output projection is not a dead layer: training reaches the copy at once.
    grown.train()
    grown(ids, labels=ids).loss.backward()
    assert grown.model.layers[4].self_attn.o_proj.weight.grad.abs().sum() > 0


def test_refuses_a_folder_without_weights_or_full_attention(original, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "config.json").write_text((original / "config.json").read_text())
    result = grow(empty, tmp_path / "out")
    assert result.returncode != 0 and "qwen35.recover" in result.stderr

    linear_only = tmp_path / "linear"
    linear_only.mkdir()
    config = json.loads((original / "config.json").read_text())
    config["layer_types"] = ["linear_attention"] * len(config["layer_types"])
    (linear_only / "config.json").write_text(json.dumps(config))
    result = grow(linear_only, tmp_path / "out2")
    assert result.returncode != 0 and "no full-attention layers" in result.stderr

    result = grow(original, original)
    assert result.returncode != 0 and "another folder" in result.stderr
    assert json.loads((original / "config.json").read_text())["num_hidden_layers"] == 8


def tiny_run(tmp_path: Path, grown: Path, *options: str) -> subprocess.CompletedProcess:
    """train.py for two steps from a grown checkpoint, on samples of random ids."""
    rng = torch.Generator().manual_seed(3)
    with open(tmp_path / "samples.jsonl", "w", encoding="utf-8") as f:
        for i in range(12):
            ids = torch.randint(3, 256, (48,), generator=rng).tolist()
            f.write(json.dumps({"id": f"s{i}", "domain": "terminal", "kind": "session", "split": "test" if i == 0 else "train",
                                "ids": ids, "spans": [[20, 48]]}) + "\n")
    (tmp_path / "tok").mkdir(exist_ok=True)
    (tmp_path / "tok" / "tokenizer.json").write_text(json.dumps({"added_tokens": [{"content": t, "id": i} for t, i in IDS.items()]}))
    (tmp_path / "tok" / "tokenizer_config.json").write_text("{}")
    return subprocess.run([sys.executable, "-m", "world_model.train", str(tmp_path / "samples.jsonl"), str(tmp_path / "tok"), str(tmp_path / "out"),
                           "--init-from", str(grown), "--steps", "2", "--tokens-per-batch", "200", "--lr", "1e-2", "--device", "cpu", *options],
                          capture_output=True, text=True)


def test_training_only_the_copies_leaves_every_other_weight_as_it_was(original, tmp_path):
    assert grow(original, tmp_path / "grown").returncode == 0
    result = tiny_run(tmp_path, tmp_path / "grown", "--train-layers", "4,9")
    assert result.returncode == 0, result.stderr
    assert "training layers [4, 9] only" in result.stdout
    before = load_file(str(tmp_path / "grown" / "model.safetensors"))
    after = {}
    for shard in (tmp_path / "out").glob("*.safetensors"):
        after.update(load_file(str(shard)))
    assert before.keys() == after.keys()
    changed = {name for name in before if not torch.equal(before[name], after[name])}
    assert changed, "the copies did not learn"
    assert all(name.startswith(("model.layers.4.", "model.layers.9.")) for name in changed), sorted(changed)
    assert "model.layers.4.self_attn.o_proj.weight" in changed and "model.layers.9.self_attn.o_proj.weight" in changed
    assert json.loads((tmp_path / "out" / "training.json").read_text())["train_layers"] == "4,9"


def test_train_layers_out_of_range_is_a_usage_error(original, tmp_path):
    assert grow(original, tmp_path / "grown").returncode == 0
    result = tiny_run(tmp_path, tmp_path / "grown", "--train-layers", "4,10")
    assert result.returncode == 2
    assert "layer indexes from 0 to 9" in result.stderr
