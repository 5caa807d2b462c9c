"""Recover a Hugging Face checkpoint from an fp32 folder that convert.py wrote (tokens layout).

The training checkpoint of worldloom-nano is a build output (git-ignored); the ONNX folder is what
ships. To train on from the shipped weights on a fresh clone, or on a lent GPU machine that only
receives the repository, this undoes each of convert.py's weight transforms: MatMul weights are
stored transposed, RMSNorm weights with Qwen3.5's (1 + w) offset baked in, A_log as -exp(A_log),
and the routed experts' gate/up rows interleaved for the fused SwiGLU kernel. Everything else is
stored as is. Recovered weights equal the trained ones bit for bit except where the stored form
rounded them (A_log, and the norms at the float32 step of 1 + w); the result is checked by converting it
again: every initializer must come back within float32 rounding, else the tool exits 1.

Usage: python -m qwen35.recover --onnx MODEL_DIR --out HF_DIR
"""

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from transformers import GenerationConfig, Qwen3_5MoeForCausalLM, Qwen3_5MoeTextConfig

COPIED_FILES = ("tokenizer.json", "tokenizer_config.json")


def deinterleave_gate_up(stored: np.ndarray) -> np.ndarray:
    """The inverse of experts.interleave_gate_up: g0,u0,g1,u1,… back to [gate rows | up rows]."""
    experts, rows, width = stored.shape
    pairs = stored.reshape(experts, rows // 2, 2, width)
    return np.concatenate([pairs[:, :, 0, :], pairs[:, :, 1, :]], axis=1)


def source_of(name: str, layer_types: list[str]):
    """(initializer name, inverse transform) for one Hugging Face parameter name."""
    transposed = lambda a: a.T  # noqa: E731
    offset = lambda a: a - 1.0  # noqa: E731
    same = lambda a: a  # noqa: E731
    if name == "model.embed_tokens.weight":
        return name, same
    if name == "lm_head.weight":
        return "/lm_head.weight", transposed
    if name == "model.norm.weight":
        return name, offset
    parts = name.split(".")
    index, rest = int(parts[2]), ".".join(parts[3:])
    layer = f"model.layers.{index}"
    if rest in ("input_layernorm.weight", "post_attention_layernorm.weight"):
        return f"{layer}.{rest}", offset
    if rest.startswith("self_attn."):
        module = rest.split(".")[1]
        if module in ("q_norm", "k_norm"):
            return f"{layer}.attn.{module}.weight", offset
        return f"/model/layers.{index}/attn/{module}.weight", transposed
    if rest.startswith("linear_attn."):
        module = rest.split(".")[1]
        if module in ("in_proj_qkv", "in_proj_z", "in_proj_b", "in_proj_a", "out_proj"):
            return f"/model/layers.{index}/linear_attn/{module}.weight", transposed
        if module == "A_log":
            return f"{layer}.linear_attn.neg_exp_A", lambda a: np.log(-a)
        if rest in ("linear_attn.conv1d.weight", "linear_attn.dt_bias", "linear_attn.norm.weight"):
            return f"{layer}.{rest}", same
    if rest == "mlp.gate.weight":
        return f"{layer}.moe.router.weight", transposed
    if rest == "mlp.experts.gate_up_proj":
        return f"{layer}.moe.experts.gate_up_proj.weight", deinterleave_gate_up
    if rest == "mlp.experts.down_proj":
        return f"{layer}.moe.experts.down_proj.weight", same
    if rest.startswith("mlp.shared_expert."):
        return f"/model/layers.{index}/shared_expert/{rest.split('.')[2]}.weight", transposed
    if rest == "mlp.shared_expert_gate.weight":
        return f"/model/layers.{index}/shared_expert_gate.weight", transposed
    raise ValueError(f"{name}: no stored form is known for this parameter (layer type {layer_types[index]})")


def recover(onnx_dir: Path, out: Path) -> Qwen3_5MoeForCausalLM:
    config_path = onnx_dir / "config.json"
    if not config_path.is_file() or not (onnx_dir / "model.onnx").is_file():
        raise ValueError(f"{onnx_dir} is not a folder convert.py wrote (config.json and model.onnx are needed)")
    config = Qwen3_5MoeTextConfig.from_dict(json.loads(config_path.read_text()))
    if config.model_type != "qwen3_5_moe_text":
        raise ValueError(f"{onnx_dir} holds a {config.model_type!r} model; recover.py reads the text-only (tokens) layout")
    graph = onnx.load(onnx_dir / "model.onnx", load_external_data=True).graph
    stored = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    if any(name.endswith((".weight_Q4", ".qweight")) for name in stored):
        raise ValueError(f"{onnx_dir} is int4: its weights were rounded; recover from the fp32 folder")
    if any(array.dtype != np.float32 for name, array in stored.items() if not name.startswith("/model/constants/") and "rotary" not in name):
        raise ValueError(f"{onnx_dir} is not fp32; recover from the fp32 folder")
    model = Qwen3_5MoeForCausalLM(config).eval()
    state = {}
    for name, parameter in model.state_dict().items():
        source, inverse = source_of(name, list(config.layer_types))
        if source not in stored:
            raise ValueError(f"{onnx_dir}/model.onnx has no initializer {source} (for {name})")
        array = inverse(stored[source].astype(np.float32))
        if tuple(array.shape) != tuple(parameter.shape):
            raise ValueError(f"{source}: shape {array.shape} does not fit {name} {tuple(parameter.shape)}")
        state[name] = torch.from_numpy(np.ascontiguousarray(array))
    model.load_state_dict(state, strict=True)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out, safe_serialization=True, max_shard_size="15MB")
    if (onnx_dir / "generation_config.json").is_file():
        GenerationConfig.from_pretrained(onnx_dir).save_pretrained(out)
    for name in COPIED_FILES:
        if (onnx_dir / name).is_file():
            shutil.copyfile(onnx_dir / name, out / name)
    return model


def round_trip_error(onnx_dir: Path, hf_dir: Path) -> tuple[float, str]:
    """Convert the recovered checkpoint again; the largest difference from the original initializers."""
    from qwen35.convert import convert

    with tempfile.TemporaryDirectory() as scratch:
        again = convert(hf_dir, Path(scratch) / "again", "fp32")
        original = {i.name: numpy_helper.to_array(i) for i in onnx.load(onnx_dir / "model.onnx").graph.initializer}
        rebuilt = {i.name: numpy_helper.to_array(i) for i in onnx.load(again / "model.onnx").graph.initializer}
    if original.keys() != rebuilt.keys():
        return float("inf"), f"initializer names differ: {sorted(original.keys() ^ rebuilt.keys())[:5]}"
    worst, where = 0.0, ""
    for name, array in original.items():
        if name.startswith("model.rotary_emb."):
            continue  # computed from the config, not learned; float32 angles at 16k positions differ in the last bits
        if array.dtype.kind != "f":
            if not np.array_equal(array, rebuilt[name]):
                return float("inf"), name
            continue
        scale = max(1.0, float(np.abs(array).max()))
        error = float(np.abs(array.astype(np.float64) - rebuilt[name]).max()) / scale
        if error > worst:
            worst, where = error, name
    return worst, where


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Recover a Hugging Face checkpoint from an fp32 worldloom ONNX folder.")
    parser.add_argument("--onnx", required=True, type=Path, help="the fp32 folder convert.py wrote")
    parser.add_argument("--out", required=True, type=Path, help="the Hugging Face checkpoint folder to write")
    args = parser.parse_args(argv)
    try:
        recover(args.onnx, args.out)
        error, where = round_trip_error(args.onnx, args.out)
    except (ValueError, OSError) as problem:
        print(f"recover: {problem}", file=sys.stderr)
        return 2
    # A_log goes through exp then log: a few float32 ulps; anything larger is a wrong mapping.
    if error > 1e-5:
        print(f"recover: converting the recovered checkpoint again does not give the original weights ({where}: {error:.3g})", file=sys.stderr)
        return 1
    print(f"recovered {args.out} from {args.onnx} (round trip within {error:.2g} of the stored weights)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
