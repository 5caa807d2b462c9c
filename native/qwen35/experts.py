"""The mixture-of-experts block: routed experts as one MoE/QMoE node, plus the gated shared expert."""

import numpy as np

from qwen35.graph import MS_DOMAIN
from qwen35.storage import BITS, BLOCK, pack_nibbles, quantize_rows


def interleave_gate_up(gate_up: np.ndarray) -> np.ndarray:
    """transformers stores [gate rows | up rows]; the fused SwiGLU kernel wants g0,u0,g1,u1,…"""
    experts, rows, width = gate_up.shape
    half = rows // 2
    return np.stack([gate_up[:, :half, :], gate_up[:, half:, :]], axis=2).reshape(experts, rows, width)


def quantized_experts(weights) -> tuple[np.ndarray, np.ndarray]:
    """[E, N, K] (or E arrays [N, K]) → packed codes [E, N, K/2] and scales [E, N, K/32] (scales rounded through fp16)."""
    codes, scales = [], []
    for expert in weights:
        expert_codes, expert_scales = quantize_rows(expert, round_scales_to_fp16=True)
        codes.append(pack_nibbles(expert_codes.reshape(expert.shape[0], -1)))
        scales.append(expert_scales)
    return np.stack(codes), np.stack(scales)


def routed_experts(builder, index: int, mlp, x: str) -> str:
    g, config = builder.g, builder.config
    base, prefix = f"/model/layers.{index}/moe", f"model.layers.{index}.moe.experts"
    experts = config.num_experts
    router = g.node(
        "MatMul",
        [x, builder.stored(f"model.layers.{index}.moe.router.weight", mlp.gate.weight.detach().numpy().T)],
        f"{base}/router/MatMul",
    )
    router = g.node("Reshape", [router, g.constant([-1, experts])], f"{base}/router/Reshape")
    # Views of the model's own tensors (no copy); gate_up is interleaved one expert at a time so
    # that a 256-expert layer never exists twice in memory.
    gate_up = mlp.experts.gate_up_proj.detach().float().numpy()
    down = mlp.experts.down_proj.detach().float().numpy()

    def interleaved():
        return (interleave_gate_up(gate_up[e : e + 1])[0] for e in range(experts))

    gate_up_bias = builder.stored(f"{prefix}.gate_up_proj.bias", np.zeros(gate_up.shape[:2], dtype=np.float32))
    down_bias = builder.stored(f"{prefix}.down_proj.bias", np.zeros(down.shape[:2], dtype=np.float32))
    common = {
        "activation_alpha": 1.0,
        "activation_beta": 0.0,
        "activation_type": "swiglu",
        "k": config.num_experts_per_tok,
        "normalize_routing_weights": 1,
        "swiglu_fusion": 1,
        "use_sparse_mixer": 0,
    }
    if builder.precision != "int4":
        return g.node(
            "MoE",
            [
                x,
                router,
                g.weight_stream(f"{prefix}.gate_up_proj.weight", builder.io, gate_up.shape, (e.astype(builder.io) for e in interleaved())),
                gate_up_bias,
                builder.stored(f"{prefix}.down_proj.weight", down),
                down_bias,
            ],
            f"{base}/MoE",
            domain=MS_DOMAIN,
            **common,
        )
    gate_up_codes, gate_up_scales = quantized_experts(interleaved())
    down_codes, down_scales = quantized_experts(down)
    return g.node(
        "QMoE",
        [
            x,
            router,
            g.weight(f"{prefix}.gate_up_proj.qweight", gate_up_codes),
            builder.stored(f"{prefix}.gate_up_proj.scales", gate_up_scales),
            gate_up_bias,
            g.weight(f"{prefix}.down_proj.qweight", down_codes),
            builder.stored(f"{prefix}.down_proj.scales", down_scales),
            down_bias,
        ],
        f"{base}/QMoE",
        domain=MS_DOMAIN,
        expert_weight_bits=BITS,
        block_size=BLOCK,
        **common,
    )


def shared_expert(builder, index: int, mlp, x: str) -> tuple[str, str]:
    """SwiGLU shared expert and its sigmoid gate [B, S, 1]."""
    g, base = builder.g, f"/model/layers.{index}/shared_expert"
    expert = mlp.shared_expert
    gate = builder.matmul(expert.gate_proj, f"{base}/gate_proj", x)
    up = builder.matmul(expert.up_proj, f"{base}/up_proj", x)
    silu = g.node("Mul", [gate, g.node("Sigmoid", [gate], f"{base}/gate_proj/Sigmoid")], f"{base}/gate_proj/Mul")
    product = g.node("Mul", [silu, up], f"{base}/gate_up/Mul")
    down = builder.matmul(expert.down_proj, f"{base}/down_proj", product)
    shared_gate = builder.matmul(mlp.shared_expert_gate, f"{base}_gate", x)
    return down, g.node("Sigmoid", [shared_gate], f"{base}_gate/Sigmoid")
