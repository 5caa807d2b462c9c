"""Test fixture: rewrite a GGUF made by this project's converter (llama.cpp's layout) the way
Ollama's converter (ollama/ollama convert/convert_qwen35.go) lays out a Qwen3.5 export, so the
app's reader of that layout (src-main/engine/gguf/ollama-layout.ts) can be tested against the
file llama.cpp reads as it is. Written independently of that reader, with the gguf package.

What Ollama's layout has, against llama.cpp's:
- `rope.dimension_sections` with 3 entries and Ollama's own `mrope_sections`; a per-layer
  `attention.head_count_kv` array and no recurrent-layer list or interval; `vision.*` keys;
- `blk.N.ssm_dt` without `.bias`; beta and alpha as one `ssm_ba.weight` (beta rows first);
- value heads in transformers' grouped order (llama.cpp's converter tiles them);
- the vision encoder's tensors (`v.*`) in the same file.

Usage: python -m qwen35.ollama_fixture --from LLAMA_LAYOUT.gguf --out OLLAMA_LAYOUT.gguf
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import gguf
import numpy as np

V = gguf.GGUFValueType


def tiled_to_grouped(k_heads: int, v_heads: int) -> list[int]:
    """For each grouped position g = k * r + m, the tiled position m * k_heads + k holding that head."""
    per_key = v_heads // k_heads
    return [(g % per_key) * k_heads + g // per_key for g in range(v_heads)]


def head_blocks(values: np.ndarray, order: list[int], axis: int) -> np.ndarray:
    blocks = np.split(values, len(order), axis=axis)
    return np.concatenate([blocks[i] for i in order], axis=axis)


def write_ollama_layout(source: Path, out: Path) -> Path:
    reader = gguf.GGUFReader(source)
    arch = reader.get_field("general.architecture").contents()
    get = lambda key: reader.get_field(f"{arch}.{key}").contents()  # noqa: E731
    k_heads, v_heads = get("ssm.group_count"), get("ssm.time_step_rank")
    key_dim = k_heads * get("ssm.state_size")
    layers = get("block_count")
    interval = reader.get_field(f"{arch}.full_attention_interval")
    recurrent = reader.get_field(f"{arch}.attention.recurrent_layers")
    if recurrent is not None:
        is_recurrent = list(recurrent.contents())
    else:
        is_recurrent = [(i + 1) % interval.contents() != 0 for i in range(layers)]
    order = tiled_to_grouped(k_heads, v_heads)

    writer = gguf.GGUFWriter(out, arch)
    skip = {"GGUF.version", "GGUF.tensor_count", "GGUF.kv_count", "general.architecture"}
    skip |= {f"{arch}.{key}" for key in ("full_attention_interval", "attention.recurrent_layers", "attention.head_count_kv", "rope.dimension_sections")}
    for field in reader.fields.values():
        if field.name in skip:
            continue
        if field.types[0] == V.ARRAY:
            writer.add_key_value(field.name, field.contents(), V.ARRAY, sub_type=field.types[-1])
        else:
            writer.add_key_value(field.name, field.contents(), field.types[0])
    sections = list(reader.get_field(f"{arch}.rope.dimension_sections").contents())[:3]
    writer.add_key_value(f"{arch}.rope.dimension_sections", sections, V.ARRAY, sub_type=V.INT32)
    writer.add_key_value(f"{arch}.mrope_sections", sections, V.ARRAY, sub_type=V.INT32)
    kv_heads = get("attention.head_count_kv")
    writer.add_key_value(f"{arch}.attention.head_count_kv", [0 if r else kv_heads for r in is_recurrent], V.ARRAY, sub_type=V.UINT32)
    writer.add_key_value(f"{arch}.vision.block_count", 1, V.UINT32)
    writer.add_key_value(f"{arch}.vision.embedding_length", 16, V.UINT32)

    pending_beta: dict[str, np.ndarray] = {}
    for t in reader.tensors:
        values = np.array(t.data).reshape([int(n) for n in reversed(t.shape)])
        match = re.match(r"(blk\.\d+\.)(.*)", t.name)
        base, part = (match.group(1), match.group(2)) if match else ("", t.name)
        if part in ("attn_qkv.weight", "ssm_conv1d.weight"):
            values = np.concatenate([values[: 2 * key_dim], head_blocks(values[2 * key_dim :], order, 0)])
        elif part == "attn_gate.weight":
            values = head_blocks(values, order, 0)
        elif part == "ssm_out.weight":
            values = head_blocks(values, order, 1)
        elif part in ("ssm_dt.bias", "ssm_a"):
            values = head_blocks(values, order, 0)
        if part == "ssm_beta.weight":
            pending_beta[base] = head_blocks(values, order, 0)
            continue
        if part == "ssm_alpha.weight":
            writer.add_tensor(base + "ssm_ba.weight", np.concatenate([pending_beta.pop(base), head_blocks(values, order, 0)]))
            continue
        name = base + ("ssm_dt" if part == "ssm_dt.bias" else part)
        writer.add_tensor(name, np.ascontiguousarray(values), raw_dtype=t.tensor_type if t.tensor_type not in (gguf.GGMLQuantizationType.F32, gguf.GGMLQuantizationType.F16) else None)
    assert not pending_beta, f"ssm_beta without ssm_alpha in {sorted(pending_beta)}"
    rng = np.random.default_rng(0)
    writer.add_tensor("v.blk.0.attn_qkv.weight", rng.normal(0, 0.02, (48, 16)).astype(np.float32))
    writer.add_tensor("v.patch_embed.weight", rng.normal(0, 0.02, (16, 12)).astype(np.float32))

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Rewrite a llama.cpp-layout Qwen3.5 GGUF in Ollama's layout (a test fixture).")
    parser.add_argument("--from", dest="source", required=True, type=Path)
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args(argv)
    write_ollama_layout(args.source, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
