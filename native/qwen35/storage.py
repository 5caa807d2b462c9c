"""How the converter stores each weight, shared with the reference so both see the same numbers.

fp16 rounds every stored float weight to half precision (the gate arithmetic of the linear-attention
layers stays fp32, as the model builder keeps it). int4 quantizes the dense projections (MatMulNBits)
and the routed experts (QMoE) to symmetric 4-bit blocks of 32 along the input axis; the router and
the shared-expert gate stay full precision because a rounding there flips whole experts.
`round_like_storage` rewrites a transformers model in place to exactly those stored values, so a
greedy run of transformers on it is the reference for the converted folder.
"""

import numpy as np
import torch

BLOCK = 32
BITS = 4
ZERO_POINT = 8  # the default zero point of MatMulNBits and QMoE for 4 bits


def text_parts(model):
    """(decoder stack, lm_head) of a Qwen3_5MoeForCausalLM or …ForConditionalGeneration."""
    inner = model.model
    return (inner.language_model if hasattr(inner, "language_model") else inner), model.lm_head


def int4_dense_modules(model) -> dict:
    """name → nn.Linear for the projections stored as MatMulNBits (everything but the routing gates)."""
    stack, lm_head = text_parts(model)
    chosen = {}
    for name, module in stack.layers.named_modules():
        if not isinstance(module, torch.nn.Linear):
            continue
        if name.endswith("mlp.gate") or name.endswith("shared_expert_gate"):
            continue
        chosen[name] = module
    chosen["lm_head"] = lm_head
    return chosen


def quantize_rows(weight: np.ndarray, round_scales_to_fp16: bool) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric 4-bit blockwise quantization of [N, K] along K.

    Returns (codes uint8 [N, K/32, 32] in 0..15, scales float32 [N, K/32]); the stored value of a
    weight is (code - 8) * scale.
    """
    rows, depth = weight.shape
    if depth % BLOCK:
        raise ValueError(f"int4 needs input sizes divisible by {BLOCK}; a weight has {depth}")
    blocks = weight.astype(np.float32).reshape(rows, depth // BLOCK, BLOCK)
    scales = np.abs(blocks).max(axis=-1) / 7.0
    scales[scales == 0] = 1.0
    if round_scales_to_fp16:
        scales = scales.astype(np.float16).astype(np.float32)
    codes = np.clip(np.rint(blocks / scales[..., None]), -8, 7).astype(np.int16) + ZERO_POINT
    return codes.astype(np.uint8), scales.astype(np.float32)


def dequantize_rows(codes: np.ndarray, scales: np.ndarray) -> np.ndarray:
    rows = codes.shape[0]
    values = (codes.astype(np.float32) - ZERO_POINT) * scales[..., None]
    return values.reshape(rows, -1)


def pack_nibbles(codes: np.ndarray) -> np.ndarray:
    """Two 4-bit codes per byte along the last axis, the first in the low nibble."""
    return (codes[..., 0::2] | (codes[..., 1::2] << 4)).astype(np.uint8)


def fp16_stored(values: torch.Tensor) -> torch.Tensor:
    return values.to(torch.float16).to(torch.float32)


@torch.no_grad()
def round_like_storage(model, precision: str) -> None:
    """Rewrite the model's text weights to the values the converter stores for `precision`."""
    if precision == "fp32":
        return
    stack, lm_head = text_parts(model)
    if precision == "fp16":
        for name, param in list(stack.named_parameters()) + [("lm_head.weight", lm_head.weight)]:
            if name.endswith("A_log") or name.endswith("dt_bias"):
                continue  # stored fp32, as the builder keeps the decay arithmetic
            if is_offset_norm(name):
                # Stored as (1 + weight) in fp16: keep the weight whose offset form equals that.
                param.copy_(fp16_stored(1.0 + param.float()) - 1.0)
            else:
                param.copy_(fp16_stored(param))
        return
    if precision == "int4":
        for module in int4_dense_modules(model).values():
            codes, scales = quantize_rows(module.weight.detach().numpy(), round_scales_to_fp16=False)
            module.weight.copy_(torch.from_numpy(dequantize_rows(codes, scales)))
        for layer in stack.layers:
            experts = layer.mlp.experts
            for param in (experts.gate_up_proj, experts.down_proj):
                for expert in range(param.shape[0]):
                    codes, scales = quantize_rows(param[expert].numpy(), round_scales_to_fp16=True)
                    param[expert].copy_(torch.from_numpy(dequantize_rows(codes, scales)))
        return
    raise ValueError(f"precision must be fp32, fp16 or int4, not {precision!r}")


def is_offset_norm(name: str) -> bool:
    """Zero-centred RMSNorm weights, applied as (1 + weight); the gated norm uses its weight as is."""
    return name.endswith("norm.weight") and not name.endswith("linear_attn.norm.weight")
