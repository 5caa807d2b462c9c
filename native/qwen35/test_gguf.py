"""convert.py --to gguf against transformers, on a checkpoint of a fresh random seed.

The file is read back with gguf.GGUFReader and every tensor is compared with transformers' own
module weights through the transformation llama.cpp expects (written out again here, head by head,
rather than reusing the converter's code); where node-llama-cpp is installed, its greedy tokens on
the f32 file must equal transformers'.

Run: native/.venv/bin/python -m pytest native/qwen35/test_gguf.py
QWEN35_GGUF_SEED=N reruns one seed (each run otherwise draws its own and prints it on failure).
"""

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import gguf
import numpy as np
import pytest

from qwen35.convert import load_checkpoint
from qwen35.convert import main as convert_main
from qwen35.gguf_convert import ConversionError, attention_interval, convert_gguf, recurrent_layers
from qwen35.make_checkpoint import make_checkpoint

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

SEED = int(os.environ.get("QWEN35_GGUF_SEED") or random.SystemRandom().randrange(1, 2**31))
NODE_LLAMA_CPP = ROOT / "node_modules" / "node-llama-cpp" / "package.json"


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    root = tmp_path_factory.mktemp("qwen35-gguf")
    return {form: make_checkpoint(root / form, SEED, form) for form in ("causal", "conditional")}


@pytest.fixture(scope="module")
def f32_file(checkpoints, tmp_path_factory):
    return convert_gguf(checkpoints["causal"], tmp_path_factory.mktemp("gguf") / "model-f32.gguf", "f32")


def field(reader: gguf.GGUFReader, key: str):
    found = reader.get_field(key)
    assert found is not None, f"{key} is missing (seed {SEED})"
    return found.contents()


def tensors(reader: gguf.GGUFReader) -> dict:
    """name -> (type, float32 values in numpy order)."""
    out = {}
    for t in reader.tensors:
        shape = tuple(int(n) for n in reversed(t.shape))
        values = gguf.quants.dequantize(t.data, t.tensor_type).reshape(shape)
        out[t.name] = (t.tensor_type, values.astype(np.float32))
    return out


def grouped_to_tiled(k_heads: int, v_heads: int) -> list[int]:
    """For each tiled position, the transformers (grouped) value head it holds.

    transformers' value head h = k * r + m reads key head k (repeat_interleave); llama.cpp tiles
    the key heads, so its position p reads key head p mod k_heads."""
    per_key = v_heads // k_heads
    order = [0] * v_heads
    for k in range(k_heads):
        for m in range(per_key):
            order[m * k_heads + k] = k * per_key + m
    return order


def heads_rows(values: np.ndarray, order: list[int], width: int, axis: int = 0) -> np.ndarray:
    blocks = np.split(values, len(order), axis=axis)
    assert all(block.shape[axis] == width for block in blocks)
    return np.concatenate([blocks[h] for h in order], axis=axis)


def test_f32_file_holds_every_weight_as_llama_cpp_reads_it(checkpoints, f32_file):
    model = load_checkpoint(checkpoints["causal"])
    c = model.config
    reader = gguf.GGUFReader(f32_file)
    stored = tensors(reader)
    assert field(reader, "general.architecture") == "qwen35moe"
    assert field(reader, "qwen35moe.block_count") == 4
    assert field(reader, "qwen35moe.embedding_length") == c.hidden_size
    assert field(reader, "qwen35moe.context_length") == c.max_position_embeddings
    assert field(reader, "qwen35moe.attention.head_count") == c.num_attention_heads
    assert field(reader, "qwen35moe.attention.head_count_kv") == c.num_key_value_heads
    assert field(reader, "qwen35moe.attention.key_length") == c.head_dim
    assert field(reader, "qwen35moe.rope.dimension_count") == int(c.head_dim * 0.25)
    sections = field(reader, "qwen35moe.rope.dimension_sections")
    assert sections == [2, 1, 1, 0] and sum(sections) <= int(c.head_dim * 0.25) // 2
    assert field(reader, "qwen35moe.rope.freq_base") == pytest.approx(1e7)
    assert field(reader, "qwen35moe.expert_count") == c.num_experts
    assert field(reader, "qwen35moe.expert_used_count") == c.num_experts_per_tok
    assert field(reader, "qwen35moe.expert_feed_forward_length") == c.moe_intermediate_size
    assert field(reader, "qwen35moe.expert_shared_feed_forward_length") == c.shared_expert_intermediate_size
    assert field(reader, "qwen35moe.ssm.conv_kernel") == c.linear_conv_kernel_dim
    assert field(reader, "qwen35moe.ssm.state_size") == c.linear_key_head_dim
    assert field(reader, "qwen35moe.ssm.group_count") == c.linear_num_key_heads
    assert field(reader, "qwen35moe.ssm.time_step_rank") == c.linear_num_value_heads
    assert field(reader, "qwen35moe.ssm.inner_size") == c.linear_num_value_heads * c.linear_value_head_dim
    assert field(reader, "qwen35moe.full_attention_interval") == 4
    assert field(reader, "qwen35moe.attention.layer_norm_rms_epsilon") == pytest.approx(c.rms_norm_eps)

    def expect(name, values, message=""):
        kind, got = stored.pop(name)
        assert kind == gguf.GGMLQuantizationType.F32, name
        want = np.asarray(values, dtype=np.float32)
        assert got.shape == want.shape, f"{name}: {got.shape} != {want.shape} (seed {SEED})"
        np.testing.assert_array_equal(got, want, err_msg=f"{name} {message} (seed {SEED})")

    def np_(t):
        return t.detach().float().numpy()

    stack = model.model
    # RMSNorm weights are stored as 1 + w (float32 sums, as the converter computes them).
    expect("token_embd.weight", np_(stack.embed_tokens.weight))
    expect("output.weight", np_(model.lm_head.weight))
    expect("output_norm.weight", np.float32(1) + np_(stack.norm.weight), "as 1 + w")
    k_heads, v_heads, dv, dk = c.linear_num_key_heads, c.linear_num_value_heads, c.linear_value_head_dim, c.linear_key_head_dim
    order = grouped_to_tiled(k_heads, v_heads)
    assert order != list(range(v_heads)), "the fixture must have more value than key heads, or the reorder goes untested"
    key_dim = k_heads * dk
    for i, layer in enumerate(stack.layers):
        b = f"blk.{i}."
        expect(b + "attn_norm.weight", np.float32(1) + np_(layer.input_layernorm.weight), "as 1 + w")
        expect(b + "post_attention_norm.weight", np.float32(1) + np_(layer.post_attention_layernorm.weight), "as 1 + w")
        if c.layer_types[i] == "full_attention":
            attn = layer.self_attn
            expect(b + "attn_q.weight", np_(attn.q_proj.weight))
            expect(b + "attn_k.weight", np_(attn.k_proj.weight))
            expect(b + "attn_v.weight", np_(attn.v_proj.weight))
            expect(b + "attn_output.weight", np_(attn.o_proj.weight))
            expect(b + "attn_q_norm.weight", np.float32(1) + np_(attn.q_norm.weight), "as 1 + w")
            expect(b + "attn_k_norm.weight", np.float32(1) + np_(attn.k_norm.weight), "as 1 + w")
        else:
            lin = layer.linear_attn
            qkv = np_(lin.in_proj_qkv.weight)
            expect(b + "attn_qkv.weight", np.concatenate([qkv[:key_dim], qkv[key_dim : 2 * key_dim], heads_rows(qkv[2 * key_dim :], order, dv)]))
            expect(b + "attn_gate.weight", heads_rows(np_(lin.in_proj_z.weight), order, dv))
            expect(b + "ssm_beta.weight", heads_rows(np_(lin.in_proj_b.weight), order, 1))
            expect(b + "ssm_alpha.weight", heads_rows(np_(lin.in_proj_a.weight), order, 1))
            expect(b + "ssm_a", heads_rows(-np.exp(np_(lin.A_log)), order, 1), "as -exp(A_log)")
            expect(b + "ssm_dt.bias", heads_rows(np_(lin.dt_bias), order, 1))
            conv = np_(lin.conv1d.weight).reshape(-1, c.linear_conv_kernel_dim)  # [channels, 1, kernel] squeezed
            expect(b + "ssm_conv1d.weight", np.concatenate([conv[: 2 * key_dim], heads_rows(conv[2 * key_dim :], order, dv)]))
            expect(b + "ssm_norm.weight", np_(lin.norm.weight), "as is (the gated norm has no offset)")
            expect(b + "ssm_out.weight", heads_rows(np_(lin.out_proj.weight), order, dv, axis=1))
        mlp = layer.mlp
        inter = c.moe_intermediate_size
        gate_up = np_(mlp.experts.gate_up_proj)
        expect(b + "ffn_gate_inp.weight", np_(mlp.gate.weight))
        expect(b + "ffn_gate_exps.weight", np.stack([gate_up[e, :inter] for e in range(c.num_experts)]))
        expect(b + "ffn_up_exps.weight", np.stack([gate_up[e, inter:] for e in range(c.num_experts)]))
        expect(b + "ffn_down_exps.weight", np_(mlp.experts.down_proj))
        expect(b + "ffn_gate_inp_shexp.weight", np_(mlp.shared_expert_gate.weight)[0])
        expect(b + "ffn_gate_shexp.weight", np_(mlp.shared_expert.gate_proj.weight))
        expect(b + "ffn_up_shexp.weight", np_(mlp.shared_expert.up_proj.weight))
        expect(b + "ffn_down_shexp.weight", np_(mlp.shared_expert.down_proj.weight))
    assert not stored, f"tensors nothing checked: {sorted(stored)}"


def test_tokenizer_template_and_sampling_metadata(checkpoints, f32_file):
    from transformers import AutoTokenizer

    source = checkpoints["causal"]
    reader = gguf.GGUFReader(f32_file)
    tokenizer = AutoTokenizer.from_pretrained(source)
    tokens = field(reader, "tokenizer.ggml.tokens")
    types = field(reader, "tokenizer.ggml.token_type")
    vocab = tokenizer.get_vocab()
    assert len(tokens) == len(types) == 768  # one per embedding row, the padding rows included
    for token, token_id in vocab.items():
        assert tokens[token_id] == token, token_id
    T = gguf.TokenType
    assert types[vocab["<|im_end|>"]] == T.CONTROL and types[vocab["<think>"]] == T.USER_DEFINED
    assert types[vocab["Ġ"]] == T.NORMAL and types[767] == T.UNUSED and tokens[767] == "[PAD767]"
    merges = json.loads((source / "tokenizer.json").read_text())["model"]["merges"]
    assert field(reader, "tokenizer.ggml.merges") == [m if isinstance(m, str) else " ".join(m) for m in merges]
    assert field(reader, "tokenizer.ggml.model") == "gpt2"
    assert field(reader, "tokenizer.ggml.pre") == "qwen2"  # the fixture's split is Qwen2's regex
    assert field(reader, "tokenizer.ggml.eos_token_id") == vocab["<|im_end|>"]
    assert field(reader, "tokenizer.ggml.padding_token_id") == vocab["<|endoftext|>"]
    assert field(reader, "tokenizer.ggml.bos_token_id") == vocab["<|endoftext|>"]
    assert field(reader, "tokenizer.ggml.add_bos_token") is False
    assert field(reader, "tokenizer.chat_template") == (HERE / "chat_template.jinja").read_text(encoding="utf-8")
    assert field(reader, "general.sampling.temp") == pytest.approx(0.6)
    assert field(reader, "general.sampling.top_k") == 20
    assert field(reader, "general.sampling.top_p") == pytest.approx(0.95)
    assert field(reader, "general.sampling.penalty_repeat") == pytest.approx(1.0)


def test_chat_template_jinja_wins_over_tokenizer_config(checkpoints, tmp_path):
    source = tmp_path / "hf"
    shutil.copytree(checkpoints["causal"], source)
    (source / "chat_template.jinja").write_text("{{ messages[0]['content'] }}-from-jinja")
    reader = gguf.GGUFReader(convert_gguf(source, tmp_path / "m.gguf"))
    assert field(reader, "tokenizer.chat_template") == "{{ messages[0]['content'] }}-from-jinja"


def test_conditional_form_writes_the_same_text_model(checkpoints, f32_file, tmp_path):
    causal = tensors(gguf.GGUFReader(f32_file))
    conditional = tensors(gguf.GGUFReader(convert_gguf(checkpoints["conditional"], tmp_path / "c.gguf")))
    assert conditional.keys() == causal.keys()  # no vision tensors
    for name, (_, values) in causal.items():
        np.testing.assert_array_equal(conditional[name][1], values, err_msg=name)


@pytest.mark.parametrize("gguf_type", ["f16", "bf16", "q8_0"])
def test_smaller_types_store_rounded_weights_and_keep_norms_f32(f32_file, checkpoints, tmp_path, gguf_type):
    exact = tensors(gguf.GGUFReader(f32_file))
    smaller = tensors(gguf.GGUFReader(convert_gguf(checkpoints["causal"], tmp_path / f"m-{gguf_type}.gguf", gguf_type)))
    Q = gguf.GGMLQuantizationType
    want = {"f16": Q.F16, "bf16": Q.BF16, "q8_0": Q.Q8_0}[gguf_type]
    assert smaller["blk.1.ffn_gate_exps.weight"][0] == want
    assert smaller["blk.1.attn_qkv.weight"][0] == want
    assert smaller["token_embd.weight"][0] == want
    # Norms, the router, the conv and the decay parameters stay float32, bit for bit.
    for name in ("blk.1.ssm_a", "blk.1.ssm_conv1d.weight", "blk.1.ffn_gate_inp.weight", "output_norm.weight", "blk.3.attn_q_norm.weight"):
        assert smaller[name][0] == Q.F32, name
        np.testing.assert_array_equal(smaller[name][1], exact[name][1], err_msg=name)
    for name, (_, values) in exact.items():
        got = smaller[name][1]
        # fp16 rounds at 2^-11 of the value, bf16 at 2^-8; q8_0 at 1/127 of each block of 32's largest value.
        bound = np.abs(values).max() * {"f16": 2.0**-11, "bf16": 2.0**-8, "q8_0": 1 / 127}[gguf_type]
        assert np.abs(got - values).max() <= bound, name


def test_refusals_say_what_to_do(checkpoints, tmp_path, capsys):
    source = checkpoints["causal"]
    assert convert_main(["--to", "gguf", "--from", str(source), "--out", str(tmp_path / "x.gguf"), "--type", "q4_k"]) == 2
    assert "f32, f16, q8_0" in capsys.readouterr().err
    assert convert_main(["--to", "gguf", "--from", str(source), "--out", str(tmp_path)]) == 2
    assert "pass --out FILE.gguf" in capsys.readouterr().err
    assert convert_main(["--to", "tflite", "--from", str(source), "--out", str(tmp_path / "y")]) == 2
    assert "onnx or gguf" in capsys.readouterr().err
    assert convert_main(["--to", "gguf", "--from", str(source), "--out", str(tmp_path / "z.gguf"), "--precision", "int4"]) == 2
    assert "a GGUF takes --type" in capsys.readouterr().err
    assert convert_main(["--from", str(source), "--out", str(tmp_path / "o"), "--type", "q8_0"]) == 2
    assert "--type is for --to gguf" in capsys.readouterr().err
    # No chat template anywhere: refused, since the engine renders prompts from the file's template.
    bare = tmp_path / "bare"
    shutil.copytree(source, bare)
    tokenizer_config = json.loads((bare / "tokenizer_config.json").read_text())
    del tokenizer_config["chat_template"]
    (bare / "tokenizer_config.json").write_text(json.dumps(tokenizer_config))
    with pytest.raises(ConversionError, match="no chat template"):
        convert_gguf(bare, tmp_path / "bare.gguf")


def test_layer_layouts_llama_cpp_can_place():
    L, F = "linear_attention", "full_attention"
    assert attention_interval([L, L, L, F, L, L, L, F]) == 4
    assert attention_interval([F, F]) == 1
    # worldloom-nano's grown layout (two full-attention layers side by side) has no interval: the
    # file lists the recurrent layers instead.
    assert attention_interval([L, L, L, F, F, L, L, L, F, F]) is None
    assert recurrent_layers([L, L, L, F, F]) == [True, True, True, False, False]
    with pytest.raises(ConversionError, match="neither linear_attention nor full_attention"):
        attention_interval([L, "sliding_attention"])


def permuted_layers(source: Path, out: Path, order: list[int]) -> Path:
    """A copy of a checkpoint whose layer i is the source's layer order[i] (weights and layer_types)."""
    from safetensors.numpy import load_file, save_file

    shutil.copytree(source, out)
    config = json.loads((out / "config.json").read_text())
    text = config.get("text_config", config)
    text["layer_types"] = [text["layer_types"][j] for j in order]
    (out / "config.json").write_text(json.dumps(config, indent=2))
    new_index = {old: new for new, old in enumerate(order)}
    for path in out.glob("*.safetensors"):
        renamed = {}
        for name, values in load_file(path).items():
            parts = name.split(".")
            if "layers" in parts and parts[parts.index("layers") - 1] != "blocks":
                at = parts.index("layers") + 1
                parts[at] = str(new_index[int(parts[at])])
            renamed[".".join(parts)] = values
        save_file(renamed, path, metadata={"format": "pt"})
    return out


@pytest.mark.skipif(not NODE_LLAMA_CPP.is_file(), reason="node-llama-cpp is not installed in node_modules (npm ci installs it)")
def test_a_layout_with_no_interval_is_written_as_recurrent_layers_and_decodes_as_transformers(tmp_path_factory, tmp_path):
    from qwen35.prompts import chat_prompts
    from qwen35.reference import reference_cases

    # A fresh 8-layer checkpoint (L L L F L L L F) with its last full-attention layer moved up
    # beside the first: L L L F F L L L, worldloom-nano's pattern, which no interval places.
    base = make_checkpoint(tmp_path_factory.mktemp("qwen35-8") / "hf", SEED, "causal", layers=8)
    source = permuted_layers(base, tmp_path / "hf", [0, 1, 2, 3, 7, 4, 5, 6])
    out = convert_gguf(source, tmp_path / "m.gguf")
    reader = gguf.GGUFReader(out)
    assert reader.get_field("qwen35moe.full_attention_interval") is None
    assert field(reader, "qwen35moe.attention.recurrent_layers") == [True, True, True, False, False, True, True, True]
    prompts = chat_prompts(source)[:2] + [np.random.default_rng(SEED).integers(3, 660, size=23).tolist()]
    reference = reference_cases(source, prompts, 40, model=load_checkpoint(source))
    engine = node_greedy(out, prompts, 40, tmp_path)
    for case, produced in zip(reference, engine):
        assert produced == case["reference"], f"seed {SEED}, prompt of {len(case['promptIds'])} tokens"


def node_greedy(gguf_file: Path, prompts: list[list[int]], tokens: int, tmp_path: Path, *extra: str) -> list[list[int]]:
    ids = tmp_path / "ids.json"
    ids.write_text(json.dumps(prompts))
    result = subprocess.run(
        ["node", str(HERE / "gguf_greedy.mjs"), "--gguf", str(gguf_file), "--prompt-ids", str(ids), "--tokens", str(tokens), *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    return [case["engine"] for case in json.loads(result.stdout)["cases"]]


@pytest.mark.skipif(not NODE_LLAMA_CPP.is_file(), reason="node-llama-cpp is not installed in node_modules (npm ci installs it)")
def test_node_llama_cpp_decodes_the_f32_file_as_transformers(checkpoints, f32_file, tmp_path):
    from qwen35.prompts import chat_prompts
    from qwen35.reference import reference_cases

    source = checkpoints["causal"]
    rng = np.random.default_rng(SEED)
    # A first-action chat prompt, a short history, one of over 1,500 tokens, and random ids.
    prompts = chat_prompts(source) + [rng.integers(3, 660, size=23).tolist()]
    reference = reference_cases(source, prompts, 40, model=load_checkpoint(source))
    engine = node_greedy(f32_file, prompts, 40, tmp_path)
    for case, produced in zip(reference, engine):
        assert produced == case["reference"], f"seed {SEED}, prompt of {len(case['promptIds'])} tokens"


def with_config(source: Path, out: Path, change) -> Path:
    shutil.copytree(source, out)
    config = json.loads((out / "config.json").read_text())
    change(config.get("text_config", config))
    (out / "config.json").write_text(json.dumps(config, indent=2))
    return out


def test_the_file_carries_the_metadata_llama_cpps_converter_writes(f32_file, checkpoints):
    reader = gguf.GGUFReader(f32_file)
    assert field(reader, "general.type") == "model"
    # llama.cpp's converter's label for a MoE: the expert count, then the size of one expert and the rest.
    assert field(reader, "general.size_label").startswith("8x"), field(reader, "general.size_label")
    # The recurrent-layer list always, the interval too where one places the layers.
    layer_types = json.loads((checkpoints["causal"] / "config.json").read_text())["layer_types"]
    assert field(reader, "qwen35moe.attention.recurrent_layers") == recurrent_layers(layer_types)
    assert field(reader, "qwen35moe.full_attention_interval") == attention_interval(layer_types)
    assert reader.get_field("qwen35moe.nextn_predict_layers") is None


@pytest.mark.skipif(not NODE_LLAMA_CPP.is_file(), reason="node-llama-cpp is not installed in node_modules (npm ci installs it)")
def test_rope_sections_that_do_not_fit_are_fitted_with_a_note_and_decode_as_transformers(checkpoints, tmp_path, capsys):
    from qwen35.prompts import chat_prompts
    from qwen35.reference import reference_cases

    # transformers' default sections with the fixture's small head: more than the rotary half.
    def default_sections(text):
        text["rope_parameters"]["mrope_section"] = [11, 11, 10]

    source = with_config(checkpoints["causal"], tmp_path / "hf", default_sections)
    notes = []
    out = convert_gguf(source, tmp_path / "m.gguf", log=notes.append)
    assert any("mrope_section [11, 11, 10] sums to 32" in note and "same positions" in note for note in notes), notes
    sections = field(gguf.GGUFReader(out), "qwen35moe.rope.dimension_sections")
    rotary = field(gguf.GGUFReader(out), "qwen35moe.rope.dimension_count")
    assert 0 < sum(sections) <= rotary // 2
    prompts = chat_prompts(source)[:1] + [np.random.default_rng(SEED).integers(3, 660, size=23).tolist()]
    reference = reference_cases(source, prompts, 30, model=load_checkpoint(source))
    for case, produced in zip(reference, node_greedy(out, prompts, 30, tmp_path)):
        assert produced == case["reference"], f"seed {SEED}, prompt of {len(case['promptIds'])} tokens"


def with_mtp_block(source: Path, out: Path, seed: int) -> Path:
    """A copy of the checkpoint with a multi-token-prediction block as Qwen3.5 checkpoints store it
    (mtp.fc, mtp.pre_fc_norm_*, mtp.norm and one full-attention MoE layer under mtp.layers.0)."""
    from safetensors.numpy import load_file, save_file

    shutil.copytree(source, out)
    path = out / "model.safetensors"
    weights = load_file(path)
    rng = np.random.default_rng(seed)
    full = max(int(k.split(".")[2]) for k in weights if ".self_attn.q_proj." in k)
    hidden = weights["model.norm.weight"].shape[0]
    for name, values in list(weights.items()):
        if name.startswith(f"model.layers.{full}."):
            weights["mtp.layers.0." + name.split(".", 3)[3]] = (values + rng.normal(0, 0.01, values.shape)).astype(values.dtype)
    weights["mtp.fc.weight"] = rng.normal(0, 0.05, (hidden, 2 * hidden)).astype(np.float32)
    for norm in ("pre_fc_norm_embedding", "pre_fc_norm_hidden", "norm"):
        weights[f"mtp.{norm}.weight"] = rng.normal(0, 0.1, hidden).astype(np.float32)
    save_file(weights, path, metadata={"format": "pt"})
    return out


@pytest.mark.skipif(not NODE_LLAMA_CPP.is_file(), reason="node-llama-cpp is not installed in node_modules (npm ci installs it)")
def test_mtp_tensors_are_kept_as_llama_cpps_next_token_layer_and_the_file_decodes_as_without(checkpoints, f32_file, tmp_path):
    source = with_mtp_block(checkpoints["causal"], tmp_path / "hf", SEED)
    notes = []
    out = convert_gguf(source, tmp_path / "mtp.gguf", log=notes.append)
    assert any("multi-token-prediction" in note for note in notes), notes
    reader = gguf.GGUFReader(out)
    layers = field(gguf.GGUFReader(f32_file), "qwen35moe.block_count")
    assert field(reader, "qwen35moe.block_count") == layers + 1
    assert field(reader, "qwen35moe.nextn_predict_layers") == 1
    assert field(reader, "qwen35moe.attention.recurrent_layers")[-1] is False
    written = tensors(reader)
    from safetensors.numpy import load_file

    hf = load_file(source / "model.safetensors")
    m = f"blk.{layers}."
    assert np.allclose(written[m + "nextn.eh_proj.weight"][1], hf["mtp.fc.weight"])
    for ours, theirs in (("enorm", "pre_fc_norm_embedding"), ("hnorm", "pre_fc_norm_hidden"), ("shared_head_norm", "norm")):
        assert np.allclose(written[f"{m}nextn.{ours}.weight"][1], 1 + hf[f"mtp.{theirs}.weight"]), ours
    assert np.allclose(written[m + "attn_k.weight"][1], hf["mtp.layers.0.self_attn.k_proj.weight"])
    assert written[m + "ffn_gate_exps.weight"][1].shape[0] == 8
    # llama.cpp's main graph leaves the next-token layer out: the same greedy tokens as the file without it.
    prompts = [np.random.default_rng(SEED).integers(3, 660, size=23).tolist(), list(range(5, 40))]
    assert node_greedy(out, prompts, 30, tmp_path) == node_greedy(f32_file, prompts, 30, tmp_path)


@pytest.mark.skipif(not NODE_LLAMA_CPP.is_file(), reason="node-llama-cpp is not installed in node_modules (npm ci installs it)")
def test_k_quant_types_are_written_through_the_shipped_llama_cpp(checkpoints, tmp_path):
    out = convert_gguf(checkpoints["causal"], tmp_path / "m-q6_k.gguf", "q6_k")
    reader = gguf.GGUFReader(out)
    assert field(reader, "general.file_type") == gguf.LlamaFileType.MOSTLY_Q6_K
    assert field(reader, "general.type") == "model"
    assert not list(tmp_path.glob("*.partial"))
    assert node_greedy(out, [list(range(5, 30))], 8, tmp_path)[0]

