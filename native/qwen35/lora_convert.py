"""Write a PEFT LoRA adapter of a Qwen3.5-MoE checkpoint as a GGUF LoRA adapter for llama.cpp.

Usage: python -m qwen35.lora_convert --adapter PEFT_DIR --out FILE.gguf [--base HF_DIR]

PEFT_DIR is what PEFT (or TRL's SFTTrainer with a peft_config) saves: adapter_config.json and
adapter_model.safetensors. The file written opens over the base model's GGUF (the one
`convert.py --to gguf` or llama.cpp's converter made from the same checkpoint): in Worldloom with
`--adapter FILE` or the model panel, in llama.cpp with `--lora FILE`.

The layout is the one llama.cpp reads (src/llama-adapter.cpp): `general.type` "adapter",
`adapter.type` "lora", `adapter.lora.alpha`, and for each adapted weight W (out × in) of the base
GGUF two tensors `W.lora_a` (rank × in) and `W.lora_b` (out × rank); llama.cpp adds
scale · alpha / rank · B·A·x to W·x, as PEFT does. What the base converter (gguf_convert.py)
does to a weight is done to its adapter too: a row permutation of W (value heads from grouped to
tiled order) permutes B's rows, a column permutation permutes A's columns. rsLoRA's alpha/√r
becomes alpha·√r/r. DoRA, other adapter types, and adapted routed experts, embeddings or the
output head are refused with the reason.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path

import numpy as np

from qwen35.gguf_convert import ARCH, ConversionError, read_dims, text_config, tiled_value_heads

# PEFT's module name under layers.N → (GGUF tensor, what the base converter does to W).
# "rows": W's value-head rows are tiled (from offset `skip` on); "cols": W's input columns are.
FULL_ATTENTION = {
    "self_attn.q_proj": ("attn_q", None),
    "self_attn.k_proj": ("attn_k", None),
    "self_attn.v_proj": ("attn_v", None),
    "self_attn.o_proj": ("attn_output", None),
}
LINEAR_ATTENTION = {
    "linear_attn.in_proj_qkv": ("attn_qkv", "qkv-rows"),
    "linear_attn.in_proj_z": ("attn_gate", "rows"),
    "linear_attn.in_proj_b": ("ssm_beta", "rows"),
    "linear_attn.in_proj_a": ("ssm_alpha", "rows"),
    "linear_attn.out_proj": ("ssm_out", "cols"),
}
SHARED_EXPERT = {
    "mlp.shared_expert.gate_proj": ("ffn_gate_shexp", None),
    "mlp.shared_expert.up_proj": ("ffn_up_shexp", None),
    "mlp.shared_expert.down_proj": ("ffn_down_shexp", None),
}
MODULE = re.compile(r"^(?:base_model\.model\.)?model\.(?:language_model\.)?layers\.(\d+)\.(.+)\.lora_([AB])\.weight$")


def read_adapter(adapter_dir: Path) -> tuple[dict, dict]:
    """(adapter_config.json, {tensor name: array}) of a PEFT adapter folder."""
    from safetensors.numpy import load_file

    config_path = adapter_dir / "adapter_config.json"
    if not config_path.is_file():
        raise ConversionError(f"{adapter_dir} has no adapter_config.json: pass the folder PEFT's save_pretrained (or TRL's trainer) wrote")
    config = json.loads(config_path.read_text())
    kind = config.get("peft_type")
    if kind != "LORA":
        raise ConversionError(f"{adapter_dir} holds a {kind!r} adapter; llama.cpp runs LoRA adapters only")
    if config.get("use_dora"):
        raise ConversionError(f"{adapter_dir} is a DoRA adapter (use_dora): llama.cpp has no DoRA; train with use_dora=False")
    weights = adapter_dir / "adapter_model.safetensors"
    if not weights.is_file():
        raise ConversionError(f"{adapter_dir} has no adapter_model.safetensors (a .bin adapter: save it again with safe_serialization=True)")
    tensors = {name: array.astype(np.float32) for name, array in load_file(str(weights)).items()}
    return config, tensors


def base_dir_of(adapter_dir: Path, config: dict, base: Path | None) -> Path:
    if base is not None:
        return base
    named = config.get("base_model_name_or_path")
    if named and (Path(named) / "config.json").is_file():
        return Path(named)
    raise ConversionError(
        f"the adapter's base model ({named!r}) is not a folder here: pass --base HF_DIR, the checkpoint it was trained on (its config.json gives the shapes)"
    )


def convert_lora(adapter_dir: Path, out: Path, base: Path | None = None) -> dict:
    """Writes the adapter; returns {"tensors": n pairs, "alpha": alpha written, "rank": r}."""
    import gguf

    config, tensors = read_adapter(adapter_dir)
    dims = read_dims(text_config(base_dir_of(adapter_dir, config, base)))
    rank = int(config.get("r") or 0)
    if rank <= 0:
        raise ConversionError(f"{adapter_dir}/adapter_config.json has no rank r")
    alpha = float(config.get("lora_alpha") or rank)
    # llama.cpp scales by alpha / r; rsLoRA by alpha / √r: the alpha written gives that scale.
    written_alpha = alpha * math.sqrt(rank) if config.get("use_rslora") else alpha
    if config.get("rank_pattern") or config.get("alpha_pattern"):
        raise ConversionError("the adapter gives some modules their own rank or alpha (rank_pattern/alpha_pattern); train with one rank and alpha")

    pairs: dict[tuple[int, str], dict[str, np.ndarray]] = {}
    for name, array in tensors.items():
        match = MODULE.match(name)
        if not match:
            raise ConversionError(
                f"the adapter adapts {name!r}, which has no LoRA form in llama.cpp's qwen35moe: adapt the attention, "
                "linear-attention and shared-expert projections only (not the routed experts, the embedding or the output head)"
            )
        layer, module, side = int(match.group(1)), match.group(2), match.group(3)
        pairs.setdefault((layer, module), {})[side] = array

    def value_rows(values: np.ndarray, axis: int) -> np.ndarray:
        return tiled_value_heads(values, axis, dims.k_heads, dims.v_heads)

    writer = gguf.GGUFWriter(str(out), ARCH)
    writer.add_string("general.type", "adapter")
    writer.add_string("adapter.type", "lora")
    writer.add_float32("adapter.lora.alpha", written_alpha)
    written = 0
    for (layer, module), sides in sorted(pairs.items()):
        if set(sides) != {"A", "B"}:
            raise ConversionError(f"layers.{layer}.{module} has lora_{''.join(sides)} without its partner")
        if layer >= dims.layers:
            raise ConversionError(f"the adapter adapts layer {layer}, but the base model has {dims.layers} layers: pass the --base it was trained on")
        layer_type = dims.layer_types[layer]
        table = {**SHARED_EXPERT, **(FULL_ATTENTION if layer_type == "full_attention" else LINEAR_ATTENTION)}
        if module not in table:
            raise ConversionError(
                f"the adapter adapts layers.{layer}.{module} ({layer_type} layer), which has no LoRA form in llama.cpp's qwen35moe "
                f"(it adapts {', '.join(sorted(m.split('.')[-1] for m in table))} there)"
            )
        target, transform = table[module]
        a, b = sides["A"], sides["B"]
        if transform == "rows":
            b = value_rows(b, 0)
        elif transform == "qkv-rows":
            keys = 2 * dims.key_dim
            b = np.concatenate([b[:keys], value_rows(b[keys:], 0)])
        elif transform == "cols":
            a = value_rows(a, 1)
        base_name = f"blk.{layer}.{target}.weight"
        writer.add_tensor(base_name + ".lora_a", np.ascontiguousarray(a, dtype=np.float32))
        writer.add_tensor(base_name + ".lora_b", np.ascontiguousarray(b, dtype=np.float32))
        written += 1
    if written == 0:
        raise ConversionError(f"{adapter_dir} adapts no weight")
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return {"tensors": written, "alpha": written_alpha, "rank": rank}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adapter", required=True, type=Path, help="the PEFT adapter folder (adapter_config.json, adapter_model.safetensors)")
    parser.add_argument("--out", required=True, type=Path, help="FILE.gguf to write")
    parser.add_argument("--base", type=Path, default=None, help="the Hugging Face checkpoint it was trained on (default: the adapter's base_model_name_or_path)")
    args = parser.parse_args(argv)
    try:
        summary = convert_lora(args.adapter, args.out, args.base)
    except ConversionError as error:
        print(f"lora_convert: {error}", file=sys.stderr)
        return 2
    print(f"wrote a LoRA adapter of {summary['tensors']} weights (rank {summary['rank']}, alpha {summary['alpha']:g}) for qwen35moe to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
