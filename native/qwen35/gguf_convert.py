"""Write a Qwen3.5-MoE checkpoint (Hugging Face layout) as one GGUF file for llama.cpp's `qwen35moe`.

Usage (through convert.py): convert.py --to gguf --from HF_DIR --out FILE.gguf [--type f32|f16|bf16|q8_0|q4_k_m|q5_k_m|q6_k]

The file is written with the `gguf` package's writer, one tensor at a time (read from the
safetensors, transformed, written, dropped), so peak memory stays near the largest single tensor.
What llama.cpp's qwen35moe graph expects, and how it differs from transformers' modules:

- RMSNorm weights: transformers applies `x * (1 + w)`, llama.cpp `x * w`, so every RMSNorm weight
  is stored as `1 + w`, except the linear-attention output norm (a gated norm that already uses
  its weight as is).
- Linear attention: the decay is `-exp(A_log) * softplus(a + dt_bias)`; llama.cpp multiplies by
  `ssm_a`, so `ssm_a` holds `-exp(A_log)` and `ssm_dt.bias` the dt bias. The depthwise conv1d
  weight [channels, 1, kernel] is stored as [channels, kernel].
- Value heads: transformers pairs value head `k * r + m` with key head `k` (repeat_interleave,
  r = value heads per key head); llama.cpp repeats the key heads as a whole (tiling), pairing value
  head `m * n_k + k` with key head `k`. Every tensor indexed by value head is therefore permuted
  from grouped to tiled order: the V rows of the fused qkv projection and of the conv, z, a, b,
  A_log, dt_bias and the output projection's columns.
- Experts are stacked into 3-D tensors [experts, rows, columns] (gate, up and down apart).
- The full-attention q projection keeps transformers' per-head [query, gate] layout, which is the
  layout llama.cpp splits.
- Layer placement: llama.cpp places full attention on every n-th layer (full_attention_interval)
  unless the file lists which layers are recurrent (`qwen35moe.attention.recurrent_layers`, one
  bool per layer). A periodic layout is written as the interval (every llama.cpp that knows
  qwen35moe reads it); any other, such as worldloom-nano's (L L L F F L L L F F), as that list.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

GGUF_TYPES = ("f32", "f16", "q8_0", "bf16")
# K-quants: written as f16 here, then quantised by the llama.cpp node-llama-cpp ships
# (`worldloom quantize`, src-main/engine/gguf/quantize.ts), which picks per-tensor types as
# llama-quantize does.
LLAMA_QUANT_TYPES = ("q4_k_m", "q5_k_m", "q6_k")
ARCH = "qwen35moe"

# Pre-tokenizer split patterns llama.cpp knows by name (tokenizer.ggml.pre), as tokenizer.json
# writes them. Qwen2/3 and our fixtures use the first; Qwen3.5 adds \p{M} to the letter runs.
QWEN2_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
QWEN35_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
KNOWN_SPLITS = {QWEN2_SPLIT: "qwen2", QWEN35_SPLIT: "qwen35"}


class ConversionError(ValueError):
    """A checkpoint this converter cannot write as qwen35moe; the message says what to do."""


# ---------------------------------------------------------------------------------------------
# Reading the checkpoint


def text_config(hf_dir: Path):
    from transformers import AutoConfig

    if not (hf_dir / "config.json").is_file():
        raise ConversionError(f"{hf_dir} has no config.json: pass the folder of a Hugging Face Qwen3.5-MoE checkpoint")
    config = AutoConfig.from_pretrained(hf_dir)
    model_type = getattr(config, "model_type", "")
    if model_type not in ("qwen3_5_moe", "qwen3_5_moe_text"):
        raise ConversionError(f"{hf_dir} holds a {model_type!r} model; the GGUF converter reads Qwen3.5-MoE (qwen3_5_moe) only")
    return config.get_text_config() if model_type == "qwen3_5_moe" else config


class Weights:
    """Tensors of a (possibly sharded) safetensors checkpoint, by name, read one at a time.

    Plain reads rather than safetensors' memory map: pages of a mapped file count as resident
    until it is unmapped, which would double the converter's footprint on a large checkpoint."""

    def __init__(self, hf_dir: Path):
        from qwen35.lean_load import DTYPES, safetensors_entries

        if not (hf_dir / "model.safetensors.index.json").is_file() and not (hf_dir / "model.safetensors").is_file():
            raise ConversionError(f"{hf_dir} has no model.safetensors (or model.safetensors.index.json): save the checkpoint with safetensors")
        self.entries = safetensors_entries(hf_dir)
        unreadable = sorted({entry[1] for entry in self.entries.values()} - set(DTYPES))
        if unreadable:
            raise ConversionError(f"the checkpoint stores tensors as {', '.join(unreadable)}; the converter reads F32, F16, BF16 and F64")
        self.files: dict = {}
        # Text weights sit under model.language_model. in the multimodal form, under model. otherwise.
        self.prefix = "model.language_model." if any(k.startswith("model.language_model.") for k in self.entries) else "model."

    def has(self, name: str) -> bool:
        return name in self.entries

    def get(self, name: str) -> np.ndarray:
        from qwen35.lean_load import read_into

        if name not in self.entries:
            raise ConversionError(f"the checkpoint has no tensor {name!r}: is it a complete Qwen3.5-MoE checkpoint?")
        target = torch.empty(self.entries[name][2], dtype=torch.float32)
        read_into(self.entries[name], target, self.files)
        return target.numpy()

    def close(self) -> None:
        for f in self.files.values():
            f.close()
        self.files.clear()

    def text(self, name: str) -> np.ndarray:
        return self.get(self.prefix + name)

    def has_text(self, name: str) -> bool:
        return self.has(self.prefix + name)


@dataclass(frozen=True)
class Dims:
    hidden: int
    layers: int
    layer_types: list
    heads: int
    kv_heads: int
    head_dim: int
    rotary_dim: int
    sections: list
    rope_theta: float
    k_heads: int
    v_heads: int
    k_head_dim: int
    v_head_dim: int
    conv_kernel: int
    experts: int
    experts_used: int
    expert_ffn: int
    shared_ffn: int
    vocab: int
    context: int
    eps: float
    tied: bool
    # Every n-th layer is full attention; None when the layout has no such n (recurrent_layers then).
    interval: int | None
    # What was changed to fit llama.cpp, said to the user when the file is written.
    notes: tuple = ()

    @property
    def key_dim(self) -> int:
        return self.k_heads * self.k_head_dim

    @property
    def value_dim(self) -> int:
        return self.v_heads * self.v_head_dim


def read_dims(c) -> Dims:
    rope = dict(getattr(c, "rope_parameters", None) or {})
    head_dim = c.head_dim
    factor = rope.get("partial_rotary_factor", getattr(c, "partial_rotary_factor", 1.0))
    rotary_dim = int(head_dim * factor)
    sections = list(rope.get("mrope_section") or [11, 11, 10])
    if len(sections) > 4 or any(s < 0 for s in sections):
        raise ConversionError(f"rope mrope_section {sections} is not up to four non-negative sizes")
    sections = sections + [0] * (4 - len(sections))
    notes = []
    if not 0 < sum(sections) <= rotary_dim // 2:
        # ggml's multimodal rope maps rotary pair i to section (i mod sum) and aborts on sections
        # larger than the rotary half. For text, every section sees the same position (t = h = w),
        # so any sections that fit rotate exactly as transformers does: they are scaled to fit.
        fitted = fit_sections(sections, rotary_dim // 2)
        notes.append(
            f"rope mrope_section {sections[:3]} sums to {sum(sections)}, more than the rotary half {rotary_dim // 2} "
            f"(head_dim {head_dim} x partial_rotary_factor {factor} / 2) llama.cpp accepts; written as {fitted[:3]}, "
            "which gives text the same positions (image and video positions would differ)"
        )
        sections = fitted
    if rope.get("rope_type", "default") not in ("default", None):
        raise ConversionError(f"rope_type {rope.get('rope_type')!r} is not supported; the GGUF converter writes plain (interleaved multimodal) rope")
    layer_types = list(c.layer_types)
    k_head_dim, v_head_dim = c.linear_key_head_dim, c.linear_value_head_dim
    if k_head_dim != v_head_dim:
        raise ConversionError(
            f"linear_key_head_dim {k_head_dim} differs from linear_value_head_dim {v_head_dim}; llama.cpp's qwen35moe "
            "reads one head size (ssm.state_size) for both"
        )
    if c.linear_num_value_heads % c.linear_num_key_heads:
        raise ConversionError("linear_num_value_heads must be a multiple of linear_num_key_heads")
    interval = attention_interval(layer_types)
    return Dims(
        hidden=c.hidden_size,
        layers=len(layer_types),
        layer_types=layer_types,
        heads=c.num_attention_heads,
        kv_heads=c.num_key_value_heads,
        head_dim=head_dim,
        rotary_dim=rotary_dim,
        sections=sections,
        rope_theta=float(rope.get("rope_theta", getattr(c, "rope_theta", 10000.0))),
        k_heads=c.linear_num_key_heads,
        v_heads=c.linear_num_value_heads,
        k_head_dim=k_head_dim,
        v_head_dim=v_head_dim,
        conv_kernel=c.linear_conv_kernel_dim,
        experts=c.num_experts,
        experts_used=c.num_experts_per_tok,
        expert_ffn=c.moe_intermediate_size,
        shared_ffn=c.shared_expert_intermediate_size,
        vocab=c.vocab_size,
        context=c.max_position_embeddings,
        eps=float(c.rms_norm_eps),
        tied=bool(getattr(c, "tie_word_embeddings", False)),
        interval=interval,
        notes=tuple(notes),
    )


def fit_sections(sections: list, half: int) -> list:
    """Sections scaled to sum to at most the rotary half, in proportion, the first taking the rest."""
    total = sum(sections)
    if half <= 0:
        raise ConversionError(f"the rotary dimension is {2 * half}: there is no room for rope sections")
    if total <= 0:
        return [half, 0, 0, 0]
    fitted = [s * half // total for s in sections]
    fitted[0] += half - sum(fitted)
    return fitted


def attention_interval(layer_types: list) -> int | None:
    """The full_attention_interval that places these layers (every n-th is full attention), or None.

    transformers turns full_attention_interval into layer_types and does not keep it, so it is
    recovered from the layer list. None: no interval fits (two full-attention layers side by side,
    as in worldloom-nano), and the file lists the recurrent layers instead."""
    if any(t not in ("linear_attention", "full_attention") for t in layer_types):
        raise ConversionError(f"layer_types {layer_types} holds a layer that is neither linear_attention nor full_attention")
    for interval in range(1, len(layer_types) + 2):
        if layer_types == ["full_attention" if (i + 1) % interval == 0 else "linear_attention" for i in range(len(layer_types))]:
            return interval
    return None


def recurrent_layers(layer_types: list) -> list[bool]:
    """qwen35moe.attention.recurrent_layers: True for each linear-attention (Gated DeltaNet) layer."""
    return [t == "linear_attention" for t in layer_types]


# ---------------------------------------------------------------------------------------------
# The transformations


def tiled_value_heads(values: np.ndarray, axis: int, k_heads: int, v_heads: int) -> np.ndarray:
    """Permute value heads along `axis` from grouped order (k * r + m) to tiled order (m * k_heads + k)."""
    values = np.moveaxis(values, axis, 0)
    per_key = v_heads // k_heads
    width = values.shape[0] // v_heads
    rest = values.shape[1:]
    grouped = values.reshape(k_heads, per_key, width, *rest)
    tiled = np.swapaxes(grouped, 0, 1).reshape(v_heads * width, *rest)
    return np.ascontiguousarray(np.moveaxis(tiled, 0, axis))


def offset_norm(weight: np.ndarray) -> np.ndarray:
    return (1.0 + weight).astype(np.float32)


@dataclass
class Planned:
    name: str
    shape: tuple
    kind: str  # "weight": stored in the chosen type; "f32": always float32
    produce: Callable[[], np.ndarray]


def plan_tensors(w: Weights, d: Dims) -> list[Planned]:
    plan: list[Planned] = []

    def add(name, shape, produce, kind="weight"):
        plan.append(Planned(name, tuple(shape), kind, produce))

    H = d.hidden
    add("token_embd.weight", (d.vocab, H), lambda: w.text("embed_tokens.weight"))
    add("output_norm.weight", (H,), lambda: offset_norm(w.text("norm.weight")), "f32")
    if not d.tied:
        if not w.has("lm_head.weight"):
            raise ConversionError("the checkpoint has no lm_head.weight although tie_word_embeddings is false")
        add("output.weight", (d.vocab, H), lambda: w.get("lm_head.weight"))
    for i, layer_type in enumerate(d.layer_types):
        plan_layer(add, w, d, f"layers.{i}.", f"blk.{i}.", layer_type)
    plan_mtp(add, w, d)
    return plan


def plan_layer(add, w, d: Dims, p: str, b: str, layer_type: str) -> None:
    """One decoder layer; `w` reads names below the text model (or below the MTP block)."""
    H = d.hidden
    add(b + "attn_norm.weight", (H,), lambda: offset_norm(w.text(p + "input_layernorm.weight")), "f32")
    add(b + "post_attention_norm.weight", (H,), lambda: offset_norm(w.text(p + "post_attention_layernorm.weight")), "f32")
    if layer_type == "full_attention":
        a = p + "self_attn."
        q_rows, kv_rows = d.heads * d.head_dim, d.kv_heads * d.head_dim
        add(b + "attn_q.weight", (2 * q_rows, H), lambda: w.text(a + "q_proj.weight"))
        add(b + "attn_k.weight", (kv_rows, H), lambda: w.text(a + "k_proj.weight"))
        add(b + "attn_v.weight", (kv_rows, H), lambda: w.text(a + "v_proj.weight"))
        add(b + "attn_output.weight", (H, q_rows), lambda: w.text(a + "o_proj.weight"))
        add(b + "attn_q_norm.weight", (d.head_dim,), lambda: offset_norm(w.text(a + "q_norm.weight")), "f32")
        add(b + "attn_k_norm.weight", (d.head_dim,), lambda: offset_norm(w.text(a + "k_norm.weight")), "f32")
    else:
        plan_linear_attention(add, w, d, p + "linear_attn.", b)
    plan_moe(add, w, d, p + "mlp.", b)


class MtpWeights:
    """The multi-token-prediction block (`mtp.*`, which transformers does not load) read the way
    plan_layer reads the text model: mtp.layers.J.* as layers.J.*."""

    def __init__(self, w: Weights, prefix: str):
        self.w, self.prefix = w, prefix

    def text(self, name: str) -> np.ndarray:
        return self.w.get(self.prefix + name)

    def has_text(self, name: str) -> bool:
        return self.w.has(self.prefix + name)


def mtp_layers(w: Weights) -> tuple[str, int]:
    """The MTP block's name prefix and how many decoder layers it holds (0: the checkpoint has none)."""
    for prefix in ("mtp.", "model.mtp.", "model.language_model.mtp."):
        indices = {int(k[len(prefix) :].split(".")[1]) for k in w.entries if k.startswith(prefix + "layers.")}
        if indices or w.has(prefix + "fc.weight"):
            return prefix, len(indices)
    return "", 0


def plan_mtp(add, w: Weights, d: Dims) -> None:
    """MTP layers as llama.cpp's converter writes them: decoder blocks after the last layer (full
    attention and MoE, as qwen35moe's next-token block is), the first carrying the nextn
    projection and norms; llama.cpp's main graph skips them (nextn_predict_layers)."""
    prefix, count = mtp_layers(w)
    if not count:
        return
    mtp, H, b = MtpWeights(w, prefix), d.hidden, f"blk.{d.layers}."
    for j in range(count):
        plan_layer(add, mtp, d, f"layers.{j}.", f"blk.{d.layers + j}.", "full_attention")
    add(b + "nextn.eh_proj.weight", (H, 2 * H), lambda: mtp.text("fc.weight"))
    add(b + "nextn.enorm.weight", (H,), lambda: offset_norm(mtp.text("pre_fc_norm_embedding.weight")), "f32")
    add(b + "nextn.hnorm.weight", (H,), lambda: offset_norm(mtp.text("pre_fc_norm_hidden.weight")), "f32")
    if mtp.has_text("norm.weight"):
        add(b + "nextn.shared_head_norm.weight", (H,), lambda: offset_norm(mtp.text("norm.weight")), "f32")


def plan_linear_attention(add, w, d: Dims, a: str, b: str) -> None:
    H, kd, vd = d.hidden, d.key_dim, d.value_dim
    conv = 2 * kd + vd

    def heads(values, axis=0):
        return tiled_value_heads(values, axis, d.k_heads, d.v_heads)

    def qkv():
        weight = w.text(a + "in_proj_qkv.weight")
        return np.concatenate([weight[: 2 * kd], heads(weight[2 * kd :])])

    def conv1d():
        weight = w.text(a + "conv1d.weight")
        if weight.ndim != 3 or weight.shape[1] != 1:
            raise ConversionError(f"{a}conv1d.weight has shape {weight.shape}; a depthwise conv [channels, 1, kernel] was expected")
        weight = weight[:, 0, :]
        return np.concatenate([weight[: 2 * kd], heads(weight[2 * kd :])])

    add(b + "attn_qkv.weight", (conv, H), qkv)
    add(b + "attn_gate.weight", (vd, H), lambda: heads(w.text(a + "in_proj_z.weight")))
    add(b + "ssm_conv1d.weight", (conv, d.conv_kernel), conv1d, "f32")
    add(b + "ssm_dt.bias", (d.v_heads,), lambda: heads(w.text(a + "dt_bias")), "f32")
    add(b + "ssm_a", (d.v_heads,), lambda: heads(-np.exp(w.text(a + "A_log"))), "f32")
    add(b + "ssm_beta.weight", (d.v_heads, H), lambda: heads(w.text(a + "in_proj_b.weight")))
    add(b + "ssm_alpha.weight", (d.v_heads, H), lambda: heads(w.text(a + "in_proj_a.weight")))
    add(b + "ssm_norm.weight", (d.v_head_dim,), lambda: w.text(a + "norm.weight"), "f32")
    add(b + "ssm_out.weight", (H, vd), lambda: heads(w.text(a + "out_proj.weight"), axis=1))


def plan_moe(add, w, d: Dims, m: str, b: str) -> None:
    H, E, I, S = d.hidden, d.experts, d.expert_ffn, d.shared_ffn
    fused = w.has_text(m + "experts.gate_up_proj")

    def experts(part: str) -> np.ndarray:
        # transformers keeps experts fused in memory ([E, 2I, H] gate then up; [E, H, I]) and
        # saves them either that way or one tensor per expert; read both.
        if fused:
            if part == "down":
                return w.text(m + "experts.down_proj")
            gate_up = w.text(m + "experts.gate_up_proj")
            return np.ascontiguousarray(gate_up[:, :I] if part == "gate" else gate_up[:, I:])
        stacked = None
        for e in range(E):
            one = w.text(f"{m}experts.{e}.{part}_proj.weight")
            if stacked is None:
                stacked = np.empty((E, *one.shape), dtype=np.float32)
            stacked[e] = one
        return stacked

    add(b + "ffn_gate_inp.weight", (E, H), lambda: w.text(m + "gate.weight"), "f32")
    add(b + "ffn_gate_exps.weight", (E, I, H), lambda: experts("gate"))
    add(b + "ffn_up_exps.weight", (E, I, H), lambda: experts("up"))
    add(b + "ffn_down_exps.weight", (E, H, I), lambda: experts("down"))
    add(b + "ffn_gate_inp_shexp.weight", (H,), lambda: w.text(m + "shared_expert_gate.weight").reshape(H), "f32")
    add(b + "ffn_gate_shexp.weight", (S, H), lambda: w.text(m + "shared_expert.gate_proj.weight"))
    add(b + "ffn_up_shexp.weight", (S, H), lambda: w.text(m + "shared_expert.up_proj.weight"))
    add(b + "ffn_down_shexp.weight", (H, S), lambda: w.text(m + "shared_expert.down_proj.weight"))


# ---------------------------------------------------------------------------------------------
# Tokenizer, template and generation defaults


@dataclass
class Vocabulary:
    tokens: list
    types: list
    merges: list
    pre: str


def split_pattern(pre_tokenizer: dict | None) -> tuple[str | None, bool]:
    """(the Split regex, whether a ByteLevel step is present) of a tokenizer.json pre_tokenizer."""
    if not pre_tokenizer:
        return None, False
    steps = pre_tokenizer.get("pretokenizers", [pre_tokenizer]) if pre_tokenizer.get("type") == "Sequence" else [pre_tokenizer]
    pattern, byte_level = None, False
    for step in steps:
        if step.get("type") == "Split":
            pattern = (step.get("pattern") or {}).get("Regex")
        elif step.get("type") == "ByteLevel":
            byte_level = True
            if step.get("use_regex", True) and pattern is None:
                pattern = "gpt2"
    return pattern, byte_level


def read_vocabulary(hf_dir: Path, vocab_size: int) -> Vocabulary:
    import gguf

    path = hf_dir / "tokenizer.json"
    if not path.is_file():
        raise ConversionError(f"{hf_dir} has no tokenizer.json: the GGUF needs the checkpoint's byte-level BPE tokenizer")
    data = json.loads(path.read_text(encoding="utf-8"))
    model = data.get("model") or {}
    pattern, byte_level = split_pattern(data.get("pre_tokenizer"))
    if model.get("type") != "BPE" or not byte_level:
        raise ConversionError("tokenizer.json is not a byte-level BPE tokenizer (as Qwen's); llama.cpp's gpt2-style vocabulary needs one")
    if pattern == "gpt2":
        pre = "gpt2"
    elif pattern in KNOWN_SPLITS:
        pre = KNOWN_SPLITS[pattern]
    else:
        raise ConversionError(
            f"tokenizer.json splits text with {pattern!r}, which matches none of the pre-tokenizers llama.cpp knows "
            "here (qwen2, qwen35, gpt2); its tokenization would differ from transformers'"
        )
    by_id: dict[int, tuple[str, int]] = {}
    for token, token_id in model["vocab"].items():
        by_id[token_id] = (token, gguf.TokenType.NORMAL)
    for added in data.get("added_tokens", []):
        kind = gguf.TokenType.CONTROL if added.get("special") else gguf.TokenType.USER_DEFINED
        by_id[added["id"]] = (added["content"], kind)
    if max(by_id) >= vocab_size:
        raise ConversionError(f"the tokenizer has id {max(by_id)} but the embedding has only {vocab_size} rows")
    tokens, types = [], []
    for token_id in range(vocab_size):
        # Rows past the tokenizer (the real model pads its embedding) get unused placeholders:
        # llama.cpp needs one token per embedding row.
        token, kind = by_id.get(token_id, (f"[PAD{token_id}]", gguf.TokenType.UNUSED))
        tokens.append(token)
        types.append(int(kind))
    merges = [m if isinstance(m, str) else " ".join(m) for m in model.get("merges", [])]
    return Vocabulary(tokens, types, merges, pre)


def chat_template(hf_dir: Path) -> str:
    jinja = hf_dir / "chat_template.jinja"
    if jinja.is_file():
        return jinja.read_text(encoding="utf-8")
    config_path = hf_dir / "tokenizer_config.json"
    template = json.loads(config_path.read_text(encoding="utf-8")).get("chat_template") if config_path.is_file() else None
    if isinstance(template, list):  # [{"name": "default", "template": ...}, ...]
        named = {entry.get("name"): entry.get("template") for entry in template}
        template = named.get("default")
    if not isinstance(template, str) or not template:
        raise ConversionError(
            f"{hf_dir} has no chat template (chat_template.jinja or tokenizer_config.json's chat_template); "
            "Worldloom renders prompts from the file's template, so add one to the checkpoint first"
        )
    return template


def special_ids(hf_dir: Path, c, tokens: list) -> dict:
    """bos/eos/pad ids: tokenizer_config's named tokens first, then generation_config, then config."""
    config_path = hf_dir / "tokenizer_config.json"
    tokenizer_config = json.loads(config_path.read_text(encoding="utf-8")) if config_path.is_file() else {}
    generation_path = hf_dir / "generation_config.json"
    generation = json.loads(generation_path.read_text()) if generation_path.is_file() else {}
    index = {token: i for i, token in enumerate(tokens)}

    def named(key):
        value = tokenizer_config.get(key)
        if isinstance(value, dict):
            value = value.get("content")
        return index.get(value) if isinstance(value, str) else None

    def first(value):
        return value[0] if isinstance(value, list) and value else value

    ids = {}
    for key in ("bos", "eos", "pad"):
        found = named(f"{key}_token")
        if found is None:
            found = first(generation.get(f"{key}_token_id"))
        if found is None:
            found = first(getattr(c, f"{key}_token_id", None))
        if found is not None:
            ids[key] = int(found)
    ids["add_bos"] = bool(tokenizer_config.get("add_bos_token", False))
    return ids


def sampling_defaults(hf_dir: Path) -> dict:
    """The generation defaults llama.cpp reads from general.sampling.* (the gguf package's keys)."""
    path = hf_dir / "generation_config.json"
    if not path.is_file():
        return {}
    generation = json.loads(path.read_text())
    out = {}
    if generation.get("do_sample") is False:
        out["temp"] = 0.0  # greedy by default: GGUF has no do_sample key, temperature 0 says the same
    elif generation.get("temperature") is not None:
        out["temp"] = float(generation["temperature"])
    if generation.get("top_k") is not None:
        out["top_k"] = int(generation["top_k"])
    if generation.get("top_p") is not None:
        out["top_p"] = float(generation["top_p"])
    if generation.get("repetition_penalty") is not None:
        out["penalty_repeat"] = float(generation["repetition_penalty"])
    return out


# ---------------------------------------------------------------------------------------------
# Writing


def storage_type(planned: Planned, gguf_type: str):
    import gguf

    Q = gguf.GGMLQuantizationType
    if planned.kind == "f32" or gguf_type == "f32":
        return Q.F32
    if gguf_type == "f16":
        return Q.F16
    # bf16 keeps f32's exponent range: a model trained and released in bf16 is stored exactly.
    if gguf_type == "bf16":
        return Q.BF16
    # q8_0 packs blocks of 32 along a row; a row of another length stays f16.
    return Q.Q8_0 if planned.shape[-1] % 32 == 0 else Q.F16


def encode(values: np.ndarray, qtype) -> np.ndarray:
    import gguf

    Q = gguf.GGMLQuantizationType
    values = np.ascontiguousarray(values, dtype=np.float32)
    if qtype == Q.F32:
        return values
    if qtype == Q.F16:
        return values.astype(np.float16)
    return gguf.quants.quantize(values, qtype)


def stored_nbytes(shape: tuple, qtype) -> int:
    import gguf

    block, size = gguf.GGML_QUANT_SIZES[qtype]
    return int(np.prod(shape)) // block * size


def convert_gguf(hf_dir: Path, out: Path, gguf_type: str = "f32", log: Callable[[str], None] | None = None) -> Path:
    import gguf

    if gguf_type in LLAMA_QUANT_TYPES:
        return convert_quantized(hf_dir, out, gguf_type, log)
    if gguf_type not in GGUF_TYPES:
        raise ConversionError(f"--type must be one of {', '.join(GGUF_TYPES + LLAMA_QUANT_TYPES)}, not {gguf_type!r}")
    hf_dir, out = Path(hf_dir), Path(out)
    if out.is_dir():
        raise ConversionError(f"{out} is a folder; --to gguf writes one file: pass --out FILE.gguf")
    c = text_config(hf_dir)
    d = read_dims(c)
    vocabulary = read_vocabulary(hf_dir, d.vocab)
    template = chat_template(hf_dir)
    ids = special_ids(hf_dir, c, vocabulary.tokens)
    weights = Weights(hf_dir)
    plan = plan_tensors(weights, d)

    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    writer = gguf.GGUFWriter(partial, ARCH)
    writer.add_type(gguf.GGUFType.MODEL)
    writer.add_name(hf_dir.resolve().name)
    writer.add_file_type({"f32": gguf.LlamaFileType.ALL_F32, "f16": gguf.LlamaFileType.MOSTLY_F16, "q8_0": gguf.LlamaFileType.MOSTLY_Q8_0, "bf16": gguf.LlamaFileType.MOSTLY_BF16}[gguf_type])
    writer.add_quantization_version(gguf.GGML_QUANT_VERSION)
    writer.add_context_length(d.context)
    writer.add_embedding_length(d.hidden)
    mtp = mtp_layers(weights)[1]
    writer.add_block_count(d.layers + mtp)
    if mtp:
        writer.add_nextn_predict_layers(mtp)
    writer.add_feed_forward_length(d.expert_ffn)
    writer.add_head_count(d.heads)
    writer.add_head_count_kv(d.kv_heads)
    writer.add_key_length(d.head_dim)
    writer.add_value_length(d.head_dim)
    writer.add_rope_dimension_count(d.rotary_dim)
    writer.add_rope_dimension_sections(d.sections)
    writer.add_rope_freq_base(d.rope_theta)
    writer.add_layer_norm_rms_eps(d.eps)
    writer.add_expert_count(d.experts)
    writer.add_expert_used_count(d.experts_used)
    writer.add_expert_feed_forward_length(d.expert_ffn)
    writer.add_expert_shared_feed_forward_length(d.shared_ffn)
    writer.add_ssm_conv_kernel(d.conv_kernel)
    writer.add_ssm_inner_size(d.value_dim)
    writer.add_ssm_state_size(d.k_head_dim)
    writer.add_ssm_time_step_rank(d.v_heads)
    writer.add_ssm_group_count(d.k_heads)
    say = log or (lambda message: print(f"convert: {message}", file=sys.stderr))
    for note in d.notes:
        say(note)
    # The recurrent-layer list always (llama.cpp's converter writes it; MTP layers are attention
    # layers), and the interval too where one places the layers, for llama.cpp builds older than
    # the list. A layout no interval places gets no interval rather than a wrong one: a llama.cpp
    # too old for the list then fails to find a layer's tensors instead of running them misplaced.
    writer.add_array(f"{ARCH}.attention.recurrent_layers", recurrent_layers(d.layer_types) + [False] * mtp)
    if d.interval is not None:
        writer.add_full_attention_interval(d.interval)
    else:
        # Said even without a log: the file then needs a newer llama.cpp than a periodic one.
        say(
            f"layer_types {''.join('L' if r else 'F' for r in recurrent_layers(d.layer_types))} put full attention on no fixed "
            f"interval: written as {ARCH}.attention.recurrent_layers only (read by llama.cpp builds since qwen35moe's "
            "recurrent-layer list; older ones refuse the file)"
        )
    if mtp:
        say(f"kept the checkpoint's {mtp} multi-token-prediction layer(s) as blk.{d.layers}+ (nextn_predict_layers {mtp}), as llama.cpp's converter does")

    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre(vocabulary.pre)
    writer.add_token_list(vocabulary.tokens)
    writer.add_token_types(vocabulary.types)
    writer.add_token_merges(vocabulary.merges)
    if "bos" in ids:
        writer.add_bos_token_id(ids["bos"])
    if "eos" in ids:
        writer.add_eos_token_id(ids["eos"])
    if "pad" in ids:
        writer.add_pad_token_id(ids["pad"])
    writer.add_add_bos_token(ids["add_bos"])
    writer.add_chat_template(template)
    sampling = sampling_defaults(hf_dir)
    for key, value in sampling.items():
        getattr(writer, f"add_sampling_{key}")(value)

    types = [storage_type(p, gguf_type) for p in plan]
    for planned, qtype in zip(plan, types):
        writer.add_tensor_info(planned.name, planned.shape, np.dtype(np.float32), stored_nbytes(planned.shape, qtype), raw_dtype=qtype)
    # general.size_label counted from the tensors as llama.cpp's converter counts them ("256x…" for a MoE).
    writer.add_size_label(gguf.size_label(*writer.get_total_parameter_count()))
    try:
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_ti_data_to_file()
        for planned, qtype in zip(plan, types):
            values = planned.produce()
            if tuple(values.shape) != planned.shape:
                raise ConversionError(f"{planned.name}: the checkpoint gives shape {tuple(values.shape)}, config.json implies {planned.shape}")
            writer.write_tensor_data(encode(values, qtype))
            del values
        writer.close()
        os.replace(partial, out)
    finally:
        writer.close()
        weights.close()
        if partial.exists():
            partial.unlink()
    if log:
        log(f"wrote {len(plan)} tensors ({gguf_type}) to {out}")
    return out


def convert_quantized(hf_dir: Path, out: Path, gguf_type: str, log: Callable[[str], None] | None = None) -> Path:
    """An f16 file beside the target, quantised by `worldloom quantize` (llama.cpp from node-llama-cpp), then removed."""
    import subprocess

    out = Path(out)
    f16 = out.with_name(out.name + ".f16.partial")
    cli = Path(__file__).resolve().parents[2] / "src-main" / "cli" / "worldloom.mjs"
    if not cli.is_file():
        raise ConversionError(f"{gguf_type} is made by `worldloom quantize`, which is not at {cli}; write --type f16 and quantise it there")
    try:
        convert_gguf(hf_dir, f16, "f16", log)
        result = subprocess.run(["node", str(cli), "quantize", str(f16), str(out), "--type", gguf_type], stdout=subprocess.PIPE, text=True)
        if result.returncode != 0:
            raise ConversionError(f"llama.cpp could not quantise the f16 file to {gguf_type} (see above)")
    finally:
        f16.unlink(missing_ok=True)
    if log:
        log(f"quantised to {gguf_type}: {out}")
    return out
