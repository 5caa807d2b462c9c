"""The converter against transformers, on a checkpoint of a seed the fixtures never used.

Run: native/.venv/bin/python -m pytest native/qwen35/test_convert.py
"""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from qwen35.check import LOGIT_TOLERANCE, RELATIVE_LOGIT_TOLERANCE, CheckReport, check_folder, compare_logits, logit_bound
from qwen35.convert import convert, load_checkpoint
from qwen35.make_checkpoint import make_checkpoint
from qwen35.ort_runner import OrtDecoder
from qwen35.prompts import conversation
from qwen35.reference import read_prompt_ids

HERE = Path(__file__).resolve().parent

FRESH_SEED = 20261124
FIXTURES = HERE.parent.parent / "src-main" / "engine" / "onnx" / "fixtures" / "qwen35"
# worldloom-nano's trained checkpoint: built by `npm run model:build`, never committed (data/ is ignored).
NANO_CHECKPOINT = HERE.parent / "world_model" / "data" / "hf-checkpoint"


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    root = tmp_path_factory.mktemp("qwen35")
    return {
        "causal": make_checkpoint(root / "causal", FRESH_SEED, "causal"),
        "conditional": make_checkpoint(root / "conditional", FRESH_SEED, "conditional"),
    }


def quick_prompts(hf_dir: Path) -> list[list[int]]:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(hf_dir)
    chat = tokenizer.apply_chat_template(conversation(1), tokenize=False, add_generation_prompt=True)
    rng = np.random.default_rng(FRESH_SEED)
    return [tokenizer.encode(chat, add_special_tokens=False), rng.integers(3, 600, size=17).tolist()]


@pytest.mark.parametrize(
    "form,precision,layout",
    [("causal", "fp32", "tokens"), ("conditional", "fp32", "embeds"), ("causal", "fp16", "tokens"), ("causal", "int4", "tokens")],
)
def test_converted_folder_decodes_as_transformers(checkpoints, tmp_path, form, precision, layout):
    source = checkpoints[form]
    folder = convert(source, tmp_path / "onnx", precision, layout)
    report = check_folder(source, folder, precision, tokens=32, prompts=quick_prompts(source))
    assert report.ok, report.summary()
    names = {item.name for item in OrtDecoder(folder).session.get_inputs()}
    assert ("input_ids" in names) == (layout == "tokens")
    assert ("inputs_embeds" in names) == (layout == "embeds")
    assert (folder / "embedding.onnx").exists() == (layout == "embeds")


def test_graph_declares_the_builder_cache_layout(checkpoints, tmp_path):
    folder = convert(checkpoints["causal"], tmp_path / "onnx", "fp16", "tokens")
    session = OrtDecoder(folder).session
    inputs = {item.name: item for item in session.get_inputs()}
    key = inputs["past_key_values.3.key"]
    assert key.shape == ["batch_size", 2, "past_sequence_length", "kv_cache_dim"]
    assert key.type == "tensor(float16)"
    assert inputs["past_key_values.0.conv_state"].shape == ["batch_size", 128, 3]
    assert inputs["past_key_values.0.recurrent_state"].shape == ["batch_size", 4, 16, 16]
    assert "past_key_values.0.key" not in inputs
    outputs = {item.name: item for item in session.get_outputs()}
    assert outputs["logits"].type == "tensor(float16)"
    config = json.loads((folder / "genai_config.json").read_text())
    assert config["model"]["type"] == "qwen3_5_moe_text"
    assert config["search"]["top_k"] == 20 and config["search"]["temperature"] == 0.6
    assert config["search"]["do_sample"] is True


def test_same_seed_gives_the_same_bytes(checkpoints, tmp_path):
    again = make_checkpoint(tmp_path / "again", FRESH_SEED, "causal")
    for name in ("model.safetensors", "tokenizer.json", "tokenizer_config.json", "config.json", "generation_config.json"):
        assert (again / name).read_bytes() == (checkpoints["causal"] / name).read_bytes(), name


def test_both_forms_hold_the_same_text_weights(checkpoints):
    causal, conditional = load_checkpoint(checkpoints["causal"]), load_checkpoint(checkpoints["conditional"])
    assert conditional.model.language_model.layers[3].self_attn.q_proj.weight.equal(causal.model.layers[3].self_attn.q_proj.weight)
    assert conditional.lm_head.weight.equal(causal.lm_head.weight)
    assert conditional.config.text_config.layer_types == ["linear_attention"] * 3 + ["full_attention"]


def test_chat_template_renders_the_qwen35_layout(checkpoints):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(checkpoints["causal"])
    messages = [
        {"role": "user", "content": "ls"},
        {"role": "assistant", "content": "  a.txt  ", "reasoning_content": "listing"},
        {"role": "user", "content": "pwd"},
        {"role": "assistant", "content": " /srv ", "reasoning_content": ""},
    ]
    history = tokenizer.apply_chat_template(messages, tokenize=False)
    assert "listing" not in history  # reasoning of a turn before the last user turn is dropped
    assert "<|im_start|>assistant\na.txt<|im_end|>" in history
    assert history.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n/srv<|im_end|>\n")
    prompt = tokenizer.apply_chat_template(messages[:3], tokenize=False, add_generation_prompt=True)
    assert prompt.endswith("<|im_start|>user\npwd<|im_end|>\n<|im_start|>assistant\n<think>\n")
    closed = tokenizer.apply_chat_template(messages[:3], tokenize=False, add_generation_prompt=True, enable_thinking=False)
    assert closed.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    assert len(tokenizer.encode("<think></think><|im_end|>", add_special_tokens=False)) == 3


def test_prompt_ids_file_is_validated(tmp_path):
    bad = tmp_path / "ids.json"
    bad.write_text('{"not": "a list"}')
    with pytest.raises(ValueError, match="JSON array"):
        read_prompt_ids(bad)


@pytest.mark.skipif(not (FIXTURES / "tokens-fp32" / "golden.json").is_file(), reason="committed fixtures not present")
@pytest.mark.parametrize("name", ["tokens-fp32", "embeds-fp32", "tokens-fp16", "tokens-int4"])
def test_committed_fixture_reproduces_its_golden_tokens(name):
    decoder = OrtDecoder(FIXTURES / name)
    golden = json.loads((FIXTURES / name / "golden.json").read_text())["cases"]
    assert len({len(case["promptIds"]) for case in golden}) >= 3
    assert max(len(case["promptIds"]) for case in golden) >= 1500
    for case in golden:
        produced, _ = decoder.greedy(case["promptIds"], len(case["reference"]))
        assert produced == case["reference"]


def test_embedding_model_places_image_features_at_image_pads(checkpoints, tmp_path):
    import onnxruntime as ort

    source = checkpoints["conditional"]
    folder = convert(source, tmp_path / "onnx", "fp32", "embeds")
    model = load_checkpoint(source)
    table = model.model.language_model.embed_tokens.weight.detach().numpy()
    pad = model.config.image_token_id
    ids = np.array([[7, pad, 9, pad], [pad, 11, 12, 13]], dtype=np.int64)
    features = np.arange(3 * table.shape[1], dtype=np.float32).reshape(3, -1)
    session = ort.InferenceSession(str(folder / "embedding.onnx"), providers=["CPUExecutionProvider"])
    (embeds,) = session.run(None, {"input_ids": ids, "image_features": features})
    # Image features fill the image-pad positions in reading order, as transformers' masked scatter does.
    np.testing.assert_array_equal(embeds[0, 1], features[0])
    np.testing.assert_array_equal(embeds[0, 3], features[1])
    np.testing.assert_array_equal(embeds[1, 0], features[2])
    np.testing.assert_array_equal(embeds[1, 1:], table[[11, 12, 13]])
    (plain,) = session.run(None, {"input_ids": ids[:, [0, 2]], "image_features": features[:0]})
    np.testing.assert_array_equal(plain[0], table[[7, 9]])


def test_command_lines_refuse_bad_arguments_with_what_to_do(checkpoints, tmp_path, capsys):
    from qwen35 import convert as convert_cli
    from qwen35 import reference as reference_cli

    assert convert_cli.main(["--from", str(tmp_path), "--out", str(tmp_path / "x")]) == 2
    assert "has no config.json" in capsys.readouterr().err
    source = str(checkpoints["causal"])
    assert convert_cli.main(["--from", source, "--out", str(tmp_path / "x"), "--precision", "int8", "--no-check"]) == 2
    assert "fp32, fp16, int4" in capsys.readouterr().err
    ids = tmp_path / "ids.json"
    ids.write_text("[[5, 6, 7]]")
    assert reference_cli.main(["--hf", source, "--prompt-ids", str(ids), "--tokens", "4", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["cases"][0]["promptIds"] == [5, 6, 7] and len(printed["cases"][0]["reference"]) == 4


def test_logit_bound_grows_with_the_logits_scale_above_a_floor():
    small = np.array([[0.5, -1.0, 2.0]], dtype=np.float32)
    assert logit_bound("fp32", small) == LOGIT_TOLERANCE["fp32"]
    large = np.array([[3.0, -20.0, 7.0]], dtype=np.float32)
    assert logit_bound("fp32", large) == pytest.approx(RELATIVE_LOGIT_TOLERANCE * 20.0)
    assert logit_bound("int4", large) == pytest.approx(RELATIVE_LOGIT_TOLERANCE * 20.0)
    assert logit_bound("fp16", large) == LOGIT_TOLERANCE["fp16"]
    # A difference the old absolute 2e-3 refused passes on logits of scale 20, and one 2x the scaled bound fails.
    report = CheckReport("fp32")
    compare_logits(report, "fp32", "within", large + 5e-3, large)
    assert report.ok, report.summary()
    compare_logits(report, "fp32", "beyond", large + 2 * RELATIVE_LOGIT_TOLERANCE * 20.0, large)
    assert not report.ok and report.lines[-1].startswith("FAIL beyond")
    # On small logits the floor still holds: the same 5e-3 fails.
    report = CheckReport("fp32")
    compare_logits(report, "fp32", "small", small + 5e-3, small)
    assert not report.ok


def corrupt(model, part: str):
    """A copy of `model` with one small conversion-sized error: 1 % noise on one routed expert of
    layer 1, or layer 2's post-attention norm scaled by 1.01."""
    import copy

    import torch

    broken = copy.deepcopy(model)
    layers = broken.model.layers
    generator = torch.Generator().manual_seed(FRESH_SEED)
    with torch.no_grad():
        if part == "expert":
            for weights in (layers[1].mlp.experts.gate_up_proj, layers[1].mlp.experts.down_proj):
                weights[3] += 0.01 * weights[3].std() * torch.randn(weights[3].shape, generator=generator)
        else:
            layers[2].post_attention_layernorm.weight.mul_(1.01)
    return broken


@pytest.mark.parametrize("part", ["expert", "norm"])
def test_check_catches_a_slightly_corrupted_weight(checkpoints, tmp_path, part):
    source = checkpoints["causal"]
    model = load_checkpoint(source)
    folder = convert(source, tmp_path / "onnx", "fp32", "tokens", model=corrupt(model, part))
    report = check_folder(source, folder, "fp32", tokens=32, prompts=quick_prompts(source), model=model)
    assert not report.ok
    # The logit bound itself catches it, not only the greedy-token comparison.
    assert any(line.startswith("FAIL") and "full-pass logits" in line for line in report.lines), report.summary()


@pytest.mark.skipif(not (NANO_CHECKPOINT / "config.json").is_file(), reason="worldloom-nano's checkpoint is not here: run npm run model:build")
def test_trained_nano_checkpoint_passes_the_fp32_check(tmp_path):
    # Its logits reach ~22, and onnxruntime differs from torch by up to ~5e-3 there: the check must
    # pass it (every greedy token matches) while still refusing a corrupted expert on the same model.
    model = load_checkpoint(NANO_CHECKPOINT)
    folder = convert(NANO_CHECKPOINT, tmp_path / "onnx", "fp32", "tokens", model=model)
    report = check_folder(NANO_CHECKPOINT, folder, "fp32", model=model)
    assert report.ok, report.summary()
    broken = convert(NANO_CHECKPOINT, tmp_path / "broken", "fp32", "tokens", model=corrupt(model, "expert"))
    report = check_folder(NANO_CHECKPOINT, broken, "fp32", model=model)
    assert any(line.startswith("FAIL") and "full-pass logits" in line for line in report.lines), report.summary()


def test_recover_gives_back_the_checkpoint_the_folder_was_converted_from(checkpoints, tmp_path):
    from qwen35.recover import main as recover_main
    from qwen35.recover import recover

    source = checkpoints["causal"]
    original = load_checkpoint(source).state_dict()
    folder = convert(source, tmp_path / "onnx", "fp32", "tokens")
    recovered = recover(folder, tmp_path / "hf").state_dict()
    assert recovered.keys() == original.keys()
    for name, weights in original.items():
        # A_log passes through exp and log, and a norm weight was stored as 1 + w, rounded at that
        # sum's float32 step; every other weight comes back bit for bit.
        offset_norm = name.endswith(("layernorm.weight", "norm.weight")) and ".linear_attn." not in name
        half_step = 2.0**-24 * (1 + weights.abs().max().item())
        tolerance = 1e-6 if name.endswith("A_log") else half_step if offset_norm else 0.0
        assert (recovered[name] - weights).abs().max().item() <= tolerance, name
    # The command checks its own round trip, and refuses folders it cannot invert with what to do.
    assert recover_main(["--onnx", str(folder), "--out", str(tmp_path / "again")]) == 0
    assert recover_main(["--onnx", str(convert(source, tmp_path / "int4", "int4", "tokens")), "--out", str(tmp_path / "x")]) == 2
    assert recover_main(["--onnx", str(tmp_path), "--out", str(tmp_path / "y")]) == 2


def test_both_converters_carry_a_transformers5_chat_template_over(checkpoints, tmp_path):
    import gguf
    from transformers import AutoTokenizer

    from qwen35.gguf_convert import convert_gguf

    # transformers 5 saves the template as chat_template.jinja and drops it from tokenizer_config.json.
    source = tmp_path / "hf"
    shutil.copytree(checkpoints["causal"], source)
    AutoTokenizer.from_pretrained(source).save_pretrained(source)
    assert "chat_template" not in json.loads((source / "tokenizer_config.json").read_text())
    template = (source / "chat_template.jinja").read_text(encoding="utf-8")
    assert "<|im_start|>" in template
    folder = convert(source, tmp_path / "onnx", "fp32", "tokens")
    assert (folder / "chat_template.jinja").read_text(encoding="utf-8") == template
    assert AutoTokenizer.from_pretrained(folder).chat_template == template
    reader = gguf.GGUFReader(convert_gguf(source, tmp_path / "model.gguf"))
    assert reader.get_field("tokenizer.chat_template").contents() == template
    # A later conversion from a checkpoint without the file does not leave the old one behind.
    convert(checkpoints["causal"], folder, "fp32", "tokens")
    assert not (folder / "chat_template.jinja").exists()
    assert AutoTokenizer.from_pretrained(folder).chat_template == json.loads((folder / "tokenizer_config.json").read_text())["chat_template"]


def test_real_dims_preset_has_the_35b_per_layer_sizes():
    from transformers import Qwen3_5MoeTextConfig

    from qwen35.make_checkpoint import PRESETS, make_checkpoint, text_config_fields

    # transformers' defaults for Qwen3_5MoeTextConfig are documented as Qwen3.5-35B-A3B's.
    real = Qwen3_5MoeTextConfig()
    fields = text_config_fields(768, PRESETS["real-dims"]["layers"], {"<|endoftext|>": 0, "<|im_end|>": 2}, "real-dims")
    for key in (
        "hidden_size", "num_attention_heads", "num_key_value_heads", "head_dim", "linear_conv_kernel_dim",
        "linear_key_head_dim", "linear_value_head_dim", "linear_num_key_heads", "linear_num_value_heads",
        "moe_intermediate_size", "shared_expert_intermediate_size", "num_experts", "num_experts_per_tok",
    ):
        assert fields[key] == getattr(real, key), key
    assert fields["rope_parameters"]["mrope_section"] == [11, 11, 10]
    built = Qwen3_5MoeTextConfig(**fields)
    assert built.layer_types == ["linear_attention", "full_attention"]
    with pytest.raises(ValueError, match="multiple of 2 for --preset real-dims"):
        make_checkpoint(Path("/nonexistent"), 1, "causal", 3, "real-dims")
    with pytest.raises(ValueError, match="--preset must be one of tiny, real-dims"):
        make_checkpoint(Path("/nonexistent"), 1, "causal", None, "huge")


@pytest.mark.parametrize("form,dtype", [("causal", "float32"), ("conditional", "float32"), ("causal", "bfloat16")])
def test_lean_loader_reads_the_weights_from_pretrained_reads(checkpoints, tmp_path, form, dtype):
    from qwen35.convert import load_for_conversion
    from qwen35.lean_load import same_weights

    source = checkpoints[form] if dtype == "float32" else make_checkpoint(tmp_path / "bf16", FRESH_SEED, form, dtype="bfloat16")
    lean = load_for_conversion(source)
    reference = load_checkpoint(source)
    assert type(lean) is type(reference)
    assert same_weights(lean, reference)
    # It really is the lean path (from_pretrained would pass the comparison trivially).
    from qwen35.convert import model_class
    from qwen35.lean_load import load_lean

    cls, config = model_class(source)
    assert load_lean(source, cls, config) is not None


def test_lean_loader_skips_what_transformers_skips_and_falls_back_on_the_unknown(checkpoints, tmp_path):
    import torch
    from safetensors.torch import load_file, save_file

    from qwen35.convert import model_class
    from qwen35.lean_load import load_lean, same_weights

    source = tmp_path / "hf"
    shutil.copytree(checkpoints["causal"], source)
    tensors = load_file(source / "model.safetensors")
    # A multi-token-prediction head, as the released Qwen3.5 checkpoints carry: transformers ignores it.
    save_file({**tensors, "mtp.fc.weight": torch.ones(4, 4)}, source / "model.safetensors", metadata={"format": "pt"})
    cls, config = model_class(source)
    lean = load_lean(source, cls, config)
    assert lean is not None and same_weights(lean, load_checkpoint(source))
    # A key it cannot place: no guess, the caller falls back to from_pretrained.
    save_file({**tensors, "model.layers.0.mystery.weight": torch.ones(2)}, source / "model.safetensors", metadata={"format": "pt"})
    assert load_lean(source, cls, config) is None


def test_large_initializers_are_streamed_to_external_data(checkpoints, tmp_path):
    import onnx

    folder = convert(checkpoints["causal"], tmp_path / "onnx", "fp32", "tokens")
    model = onnx.load(str(folder / "model.onnx"), load_external_data=False)
    by_name = {t.name: t for t in model.graph.initializer}
    external = {name for name, t in by_name.items() if t.data_location == onnx.TensorProto.EXTERNAL}
    # Every initializer of 1 KiB or more went to model.onnx.data as it was made, none is held inline
    # (protobuf refuses a message past 2 GiB: one 256-expert layer's gate_up tensor is exactly that).
    for name, tensor in by_name.items():
        if name not in external:
            assert len(tensor.raw_data) < 1024, name
    assert "model.layers.1.moe.experts.gate_up_proj.weight" in external
    entries = {e.key: e.value for e in by_name["model.layers.1.moe.experts.gate_up_proj.weight"].external_data}
    assert entries["location"] == "model.onnx.data" and int(entries["offset"]) % 64 == 0
    assert int(entries["length"]) == 8 * 64 * 64 * 4  # [experts, 2 x 32, hidden 64] float32
    assert (folder / "model.onnx").stat().st_size < 100_000


def test_chat_checkpoint_stops_with_a_bias_and_answers_without_thinking(tmp_path):
    """make_checkpoint --chat (the tiny-chat fixture's model): <|im_end|> gets about STOP_BIAS at every
    position whatever the context, the parity model's stays weak; the template has no think block and
    the defaults are greedy."""
    import torch
    from transformers import AutoTokenizer

    from qwen35.make_checkpoint import STOP_BIAS

    chat = make_checkpoint(tmp_path / "chat", FRESH_SEED, "causal", chat=True)
    parity = make_checkpoint(tmp_path / "parity", FRESH_SEED, "causal")
    tokenizer = AutoTokenizer.from_pretrained(chat)
    stop = tokenizer.convert_tokens_to_ids("<|im_end|>")
    prompt = quick_prompts(chat)
    rendered = tokenizer.apply_chat_template(conversation(1), tokenize=False, add_generation_prompt=True)
    assert rendered.endswith("<|im_start|>assistant\n") and "<think>" not in rendered
    assert json.loads((chat / "generation_config.json").read_text())["do_sample"] is False
    with torch.no_grad():
        for ids in prompt:
            chat_logits = load_checkpoint(chat)(torch.tensor([ids])).logits[0]
            parity_logits = load_checkpoint(parity)(torch.tensor([ids])).logits[0]
            assert abs(chat_logits[:, stop].mean().item() - STOP_BIAS) < 2.5
            # Every position can stop: <|im_end|> is within reach of the best logit, never far below.
            assert (chat_logits.max(dim=1).values - chat_logits[:, stop]).median().item() < 6
            assert parity_logits[:, stop].abs().max().item() < 2
