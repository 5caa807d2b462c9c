"""The Qwen3.5-MoE decoder graph, laid out as onnxruntime-genai's model builder lays it out.

See LAYOUT.md for the names, shapes, operators and dtypes, and where in the builder each was checked.
"""

import numpy as np
import torch

from qwen35.experts import routed_experts, shared_expert
from qwen35.graph import ELEMENT_TYPES, MS_DOMAIN, GraphWriter
from qwen35.storage import BITS, BLOCK, int4_dense_modules, pack_nibbles, quantize_rows, text_parts

FLOAT = np.float32


def numpy_of(tensor: torch.Tensor) -> np.ndarray:
    return tensor.detach().to(torch.float32).cpu().numpy()


class DecoderBuilder:
    def __init__(self, model, precision: str, layout: str, external=None):
        self.stack, self.lm_head = text_parts(model)
        self.config = self.stack.config
        self.precision, self.layout = precision, layout
        self.io = np.float16 if precision == "fp16" else np.float32
        self.int4 = {id(module) for module in int4_dense_modules(model).values()} if precision == "int4" else set()
        self.g = GraphWriter("main_graph", external)
        c = self.config
        self.layer_types = list(c.layer_types)
        self.hidden, self.heads, self.kv_heads, self.head_dim = (
            c.hidden_size,
            c.num_attention_heads,
            c.num_key_value_heads,
            c.head_dim,
        )
        self.rotary_dim = int(c.head_dim * c.rope_parameters.get("partial_rotary_factor", 1.0))
        self.eps = float(c.rms_norm_eps)
        self.key_dim = c.linear_num_key_heads * c.linear_key_head_dim
        self.value_dim = c.linear_num_value_heads * c.linear_value_head_dim
        self.conv_dim = 2 * self.key_dim + self.value_dim

    # --- weights -------------------------------------------------------------------------------
    def stored(self, name: str, tensor) -> str:
        array = tensor if isinstance(tensor, np.ndarray) else numpy_of(tensor)
        return self.g.weight(name, array.astype(self.io, copy=False))

    def matmul(self, module: torch.nn.Linear, name: str, x: str, output: str | None = None) -> str:
        weight = numpy_of(module.weight)  # [out, in]
        out_features, in_features = weight.shape
        if id(module) in self.int4:
            codes, scales = quantize_rows(weight, round_scales_to_fp16=False)
            packed = self.g.weight(f"{name}.weight_Q4", pack_nibbles(codes))
            scale_name = self.g.weight(f"{name}.weight_scales", scales.astype(self.io))
            return self.g.node(
                "MatMulNBits",
                [x, packed, scale_name],
                f"{name}/MatMulNBits",
                outputs=[output] if output else 1,
                domain=MS_DOMAIN,
                K=in_features,
                N=out_features,
                bits=BITS,
                block_size=BLOCK,
                accuracy_level=0,
            )
        transposed = self.stored(f"{name}.weight", weight.T)
        return self.g.node("MatMul", [x, transposed], f"{name}/MatMul", outputs=[output] if output else 1)

    def offset_norm_weight(self, name: str, weight: torch.Tensor) -> str:
        # Qwen3.5's RMSNorm multiplies by (1 + weight); the builder bakes the offset in.
        return self.stored(name, numpy_of(weight) + 1.0)

    def cast(self, x: str, name: str, to) -> str:
        return self.g.node("Cast", [x], name, to=ELEMENT_TYPES[np.dtype(to)])

    def to_float(self, x: str, name: str) -> str:
        return x if self.io == np.float32 else self.cast(x, name, np.float32)

    def to_io(self, x: str, name: str) -> str:
        return x if self.io == np.float32 else self.cast(x, name, self.io)

    # --- graph ---------------------------------------------------------------------------------
    def build(self):
        g, c = self.g, self.config
        if self.layout == "tokens":
            ids = g.input("input_ids", np.int64, ["batch_size", "sequence_length"])
            embed = self.stored("model.embed_tokens.weight", self.stack.embed_tokens.weight)
            hidden = g.node("Gather", [embed, ids], "/model/embed_tokens/Gather")
        else:
            hidden = g.input("inputs_embeds", self.io, ["batch_size", "sequence_length", self.hidden])
        mask = g.input("attention_mask", np.int64, ["batch_size", "total_sequence_length"])
        if self.layout == "tokens":
            positions = g.input("position_ids", np.int64, ["batch_size", "sequence_length"])
            # Text-only: one row of positions, repeated for the three rotary sections in the graph.
            unsqueezed = g.node("Unsqueeze", [positions, g.constant([0])], "/model/position_ids_expand/Unsqueeze")
            positions = g.node("Tile", [unsqueezed, g.constant([3, 1, 1])], "/model/position_ids_expand/Tile")
        else:
            positions = g.input("position_ids", np.int64, [3, "batch_size", "sequence_length"])
        g.output("logits", self.io, ["batch_size", "sequence_length", c.vocab_size])
        self.declare_state()
        self.seqlens_k, self.total_length = self.mask_lengths(mask)
        self.cos, self.sin = self.rotary_tables(positions)

        layers = self.stack.layers
        x = g.node(
            "SimplifiedLayerNormalization",
            [hidden, self.offset_norm_weight("model.layers.0.input_layernorm.weight", layers[0].input_layernorm.weight)],
            "/model/layers.0/input_layernorm/LayerNorm",
            axis=-1,
            epsilon=self.eps,
            stash_type=1,
        )
        residual = hidden
        for index, layer in enumerate(layers):
            if self.layer_types[index] == "linear_attention":
                mixed = self.linear_attention(index, layer.linear_attn, x)
            else:
                mixed = self.full_attention(index, layer.self_attn, x)
            x, residual = self.skip_norm(
                mixed, residual, layer.post_attention_layernorm.weight, f"model.layers.{index}.post_attention_layernorm"
            )
            mlp = self.moe(index, layer.mlp, x)
            if index + 1 < len(layers):
                norm, name = layers[index + 1].input_layernorm.weight, f"model.layers.{index + 1}.input_layernorm"
            else:
                norm, name = self.stack.norm.weight, "model.norm"
            x, residual = self.skip_norm(mlp, residual, norm, name)
        self.matmul(self.lm_head, "/lm_head", x, output="logits")
        return g.model()

    def declare_state(self):
        g, c = self.g, self.config
        for index, kind in enumerate(self.layer_types):
            if kind == "linear_attention":
                conv = ["batch_size", self.conv_dim, c.linear_conv_kernel_dim - 1]
                rec = ["batch_size", c.linear_num_value_heads, c.linear_key_head_dim, c.linear_value_head_dim]
                g.input(f"past_key_values.{index}.conv_state", self.io, conv)
                g.input(f"past_key_values.{index}.recurrent_state", self.io, rec)
                g.output(f"present.{index}.conv_state", self.io, conv)
                g.output(f"present.{index}.recurrent_state", self.io, rec)
            else:
                for kind_name in ("key", "value"):
                    past = ["batch_size", self.kv_heads, "past_sequence_length", "kv_cache_dim"]
                    present = ["batch_size", self.kv_heads, "total_sequence_length", "kv_cache_dim"]
                    g.input(f"past_key_values.{index}.{kind_name}", self.io, past)
                    g.output(f"present.{index}.{kind_name}", self.io, present)

    def mask_lengths(self, mask: str):
        """GroupQueryAttention's per-row lengths from the 2-D mask (sum - 1) and the total length."""
        g, base = self.g, "/model/attn_mask_reformat/attn_mask_subgraph"
        total = g.node("ReduceSum", [mask, g.constant([1])], f"{base}/ReduceSum", keepdims=0)
        minus_one = g.node("Sub", [total, g.constant(1)], f"{base}/Sub")
        seqlens = g.node("Cast", [minus_one], f"{base}/Sub/Cast", to=6)  # int32
        shape = g.node("Shape", [mask], f"{base}/Shape")
        width = g.node("Gather", [shape, g.constant(1)], f"{base}/Gather", axis=0)
        total_length = g.node("Cast", [width], f"{base}/Gather/Cast", to=6)
        return seqlens, total_length

    def rotary_tables(self, positions: str):
        """cos/sin [batch, seq, 1, rotary_dim] in fp32 for interleaved multimodal rotary.

        Each of the rotary_dim/2 frequencies takes its position from the temporal, height or width
        row of position_ids (interleaved T,H,W,T,H,W… up to each section's length), as the model does.
        """
        g, c = self.g, self.config
        half = self.rotary_dim // 2
        theta = c.rope_parameters["rope_theta"]
        inv_freq = 1.0 / (theta ** (np.arange(0, self.rotary_dim, 2, dtype=np.int64).astype(np.float32) / self.rotary_dim))
        freqs = np.outer(np.arange(c.max_position_embeddings, dtype=np.float32), inv_freq.astype(np.float32))
        tables = {
            "cos": g.weight("model.rotary_emb.cos_cache", np.cos(freqs).astype(np.float32)),
            "sin": g.weight("model.rotary_emb.sin_cache", np.sin(freqs).astype(np.float32)),
        }
        sections = c.rope_parameters.get("mrope_section", [half, 0, 0])
        owner = np.zeros(half, dtype=np.int64)
        for row, offset in ((1, 1), (2, 2)):
            owner[offset : sections[row] * 3 : 3] = row
        h_mask = g.weight("model.rotary_emb.h_mask", owner == 1)
        w_mask = g.weight("model.rotary_emb.w_mask", owner == 2)
        result = []
        for kind, table in tables.items():
            rows = []
            for row in range(3):
                base = f"/model/rotary_emb/{kind}/dim{row}"
                picked = g.node("Gather", [positions, g.constant([row])], f"{base}/pos/Gather", axis=0)
                squeezed = g.node("Squeeze", [picked, g.constant([0])], f"{base}/Squeeze")
                rows.append(g.node("Gather", [table, squeezed], f"{base}/cache/Gather", axis=0))
            width = g.node("Where", [w_mask, rows[2], rows[0]], f"/model/rotary_emb/{kind}/w/Where")
            both = g.node("Where", [h_mask, rows[1], width], f"/model/rotary_emb/{kind}/h/Where")
            full = g.node("Concat", [both, both], f"/model/rotary_emb/{kind}/Concat", axis=-1)
            result.append(g.node("Unsqueeze", [full, g.constant([2])], f"/model/rotary_emb/{kind}/Unsqueeze"))
        return result

    def rotate(self, x4: str, name: str) -> str:
        """Rotary on the first rotary_dim channels of each head of x [B, S, H, D], computed in fp32."""
        g = self.g
        rest = self.head_dim - self.rotary_dim
        x = self.to_float(x4, f"{name}/Cast")
        rot, keep = g.node("Split", [x, g.constant([self.rotary_dim, rest])], f"{name}/Split", outputs=2, axis=-1)
        half = self.rotary_dim // 2
        first, second = g.node("Split", [rot, g.constant([half, half])], f"{name}/half/Split", outputs=2, axis=-1)
        negated = g.node("Neg", [second], f"{name}/Neg")
        turned = g.node("Concat", [negated, first], f"{name}/rotate_half/Concat", axis=-1)
        cos_part = g.node("Mul", [rot, self.cos], f"{name}/cos/Mul")
        sin_part = g.node("Mul", [turned, self.sin], f"{name}/sin/Mul")
        rotated = g.node("Add", [cos_part, sin_part], f"{name}/Add")
        joined = g.node("Concat", [rotated, keep], f"{name}/Concat", axis=-1)
        return self.to_io(joined, f"{name}/output/Cast")

    def head_norm(self, x: str, heads: int, weight: torch.Tensor, name: str, weight_name: str) -> str:
        g = self.g
        split = g.node("Reshape", [x, g.constant([0, 0, heads, self.head_dim])], f"{name}/Reshape")
        return g.node(
            "SimplifiedLayerNormalization",
            [split, self.offset_norm_weight(weight_name, weight)],
            f"{name}/SimplifiedLayerNormalization",
            axis=-1,
            epsilon=self.eps,
            stash_type=1,
        )

    def full_attention(self, index: int, attn, x: str) -> str:
        g, base = self.g, f"/model/layers.{index}/attn"
        n, kv, d = self.heads, self.kv_heads, self.head_dim
        q_gate = self.matmul(attn.q_proj, f"{base}/q_proj", x)
        q_gate4 = g.node("Reshape", [q_gate, g.constant([0, 0, n, 2 * d])], f"{base}/q_gate_reshape/Reshape")
        q4, gate4 = g.node("Split", [q_gate4, g.constant([d, d])], f"{base}/q_gate_split/Split", outputs=2, axis=-1)
        gate = g.node("Reshape", [gate4, g.constant([0, 0, n * d])], f"{base}/gate_reshape/Reshape")
        q4 = g.node(
            "SimplifiedLayerNormalization",
            [q4, self.offset_norm_weight(f"model.layers.{index}.attn.q_norm.weight", attn.q_norm.weight)],
            f"{base}/q_norm/SimplifiedLayerNormalization",
            axis=-1,
            epsilon=self.eps,
            stash_type=1,
        )
        k = self.matmul(attn.k_proj, f"{base}/k_proj", x)
        k4 = self.head_norm(k, kv, attn.k_norm.weight, f"{base}/k_norm", f"model.layers.{index}.attn.k_norm.weight")
        v = self.matmul(attn.v_proj, f"{base}/v_proj", x)
        q = g.node("Reshape", [self.rotate(q4, f"{base}/q_rotary"), g.constant([0, 0, n * d])], f"{base}/q_flat/Reshape")
        k = g.node("Reshape", [self.rotate(k4, f"{base}/k_rotary"), g.constant([0, 0, kv * d])], f"{base}/k_flat/Reshape")
        attended = g.node(
            "GroupQueryAttention",
            [
                q,
                k,
                v,
                f"past_key_values.{index}.key",
                f"past_key_values.{index}.value",
                self.seqlens_k,
                self.total_length,
            ],
            f"{base}/GroupQueryAttention",
            outputs=[f"{base}/GroupQueryAttention/output_0", f"present.{index}.key", f"present.{index}.value"],
            domain=MS_DOMAIN,
            num_heads=n,
            kv_num_heads=kv,
            scale=float(d**-0.5),
            do_rotary=0,
        )[0]
        sigmoid = g.node("Sigmoid", [gate], f"{base}/gate/Sigmoid")
        gated = g.node("Mul", [attended, sigmoid], f"{base}/gate/Mul")
        return self.matmul(attn.o_proj, f"{base}/o_proj", gated)

    def l2_normalize(self, x: str, heads: int, head_dim: int, name: str) -> str:
        g = self.g
        split = g.node("Reshape", [x, g.constant([0, 0, heads, head_dim])], f"{name}/flat/Reshape")
        normed = g.node("LpNormalization", [self.to_float(split, f"{name}/Cast")], f"{name}/LpNormalization", axis=-1, p=2)
        normed = self.to_io(normed, f"{name}/output/Cast")
        return g.node("Reshape", [normed, g.constant([0, 0, heads * head_dim])], f"{name}/unflat/Reshape")

    def linear_attention(self, index: int, attn, x: str) -> str:
        g, c, base = self.g, self.config, f"/model/layers.{index}/linear_attn"
        prefix = f"model.layers.{index}.linear_attn"
        qkv = self.matmul(attn.in_proj_qkv, f"{base}/in_proj_qkv", x)
        z = self.matmul(attn.in_proj_z, f"{base}/in_proj_z", x)
        b = self.matmul(attn.in_proj_b, f"{base}/in_proj_b", x)
        a = self.matmul(attn.in_proj_a, f"{base}/in_proj_a", x)
        channels_first = g.node("Transpose", [qkv], f"{base}/qkv_transpose/Transpose", perm=[0, 2, 1])
        conv_out = g.node(
            "CausalConvWithState",
            [
                channels_first,
                self.stored(f"{prefix}.conv1d.weight", attn.conv1d.weight),
                self.stored(f"{prefix}.conv1d.bias", np.zeros(self.conv_dim, dtype=np.float32)),
                f"past_key_values.{index}.conv_state",
            ],
            f"{base}/CausalConvWithState",
            outputs=[f"{base}/CausalConvWithState/output_0", f"present.{index}.conv_state"],
            domain=MS_DOMAIN,
            ndim=1,
            activation="silu",
        )[0]
        mixed = g.node("Transpose", [conv_out], f"{base}/conv_out/Transpose", perm=[0, 2, 1])
        q, k, v = g.node(
            "Split",
            [mixed, g.constant([self.key_dim, self.key_dim, self.value_dim])],
            f"{base}/split_qkv/Split",
            outputs=3,
            axis=-1,
        )
        nk, dk = c.linear_num_key_heads, c.linear_key_head_dim
        q = self.l2_normalize(q, nk, dk, f"{base}/q_l2norm")
        k = self.l2_normalize(k, nk, dk, f"{base}/k_l2norm")
        q = g.node("Mul", [q, self.shared_q_scale(dk)], f"{base}/q_scaled/Mul")
        beta = g.node("Sigmoid", [b], f"{base}/beta/Sigmoid")
        # Decay in fp32 as the model computes it: g = -exp(A_log) * softplus(a + dt_bias).
        a32 = self.cast(a, f"{base}/decay/a_cast/Cast", np.float32)
        shifted = g.node("Add", [a32, g.weight(f"{prefix}.dt_bias", numpy_of(attn.dt_bias))], f"{base}/decay/Add")
        soft = g.node("Softplus", [shifted], f"{base}/decay/Softplus")
        neg_exp_a = g.weight(f"{prefix}.neg_exp_A", -np.exp(numpy_of(attn.A_log)))
        decay = self.cast(g.node("Mul", [neg_exp_a, soft], f"{base}/decay/Mul"), f"{base}/decay/g_cast/Cast", self.io)
        out = g.node(
            "LinearAttention",
            [q, k, v, f"past_key_values.{index}.recurrent_state", decay, beta],
            f"{base}/LinearAttention",
            outputs=[f"{base}/LinearAttention/output_0", f"present.{index}.recurrent_state"],
            domain=MS_DOMAIN,
            q_num_heads=nk,
            kv_num_heads=c.linear_num_value_heads,
            update_rule="gated_delta",
            scale=1.0,
        )[0]
        gated = self.gated_norm(index, attn, out, z)
        return self.matmul(attn.out_proj, f"{base}/out_proj", gated)

    def shared_q_scale(self, key_head_dim: int) -> str:
        if not hasattr(self, "_q_scale"):
            self._q_scale = self.g.weight("model.constants.q_scale", np.array([key_head_dim**-0.5], dtype=self.io))
        return self._q_scale

    def gated_norm(self, index: int, attn, out: str, z: str) -> str:
        """RMSNorm per value head (weight used as is), times SiLU(z) in fp32."""
        g, c, base = self.g, self.config, f"/model/layers.{index}/linear_attn/gated_norm"
        nv, dv = c.linear_num_value_heads, c.linear_value_head_dim
        split = g.node("Reshape", [out, g.constant([0, 0, nv, dv])], f"{base}/input_flat/Reshape")
        normed = g.node(
            "SimplifiedLayerNormalization",
            [split, self.stored(f"model.layers.{index}.linear_attn.norm.weight", attn.norm.weight)],
            f"{base}/SimplifiedLayerNormalization",
            axis=-1,
            epsilon=self.eps,
            stash_type=1,
        )
        flat = g.node("Reshape", [normed, g.constant([0, 0, nv * dv])], f"{base}/norm_unflat/Reshape")
        z32 = self.cast(z, f"{base}/z_cast/Cast", np.float32)
        silu = g.node("Mul", [z32, g.node("Sigmoid", [z32], f"{base}/z_sigmoid/Sigmoid")], f"{base}/z_silu/Mul")
        product = g.node("Mul", [self.cast(flat, f"{base}/norm_cast/Cast", np.float32), silu], f"{base}/gated_fp32/Mul")
        return self.cast(product, f"{base}/gated/Cast", self.io)

    def skip_norm(self, x: str, residual: str, weight: torch.Tensor, name: str):
        node = f"/{name.replace('.', '/')}/SkipLayerNorm"
        normed, total = self.g.node(
            "SkipSimplifiedLayerNormalization",
            [x, residual, self.offset_norm_weight(f"{name}.weight", weight)],
            node,
            outputs=[f"{node}/output_0", "", "", f"{node}/output_3"],
            domain=MS_DOMAIN,
            epsilon=self.eps,
        )[0::3]
        return normed, total

    def moe(self, index: int, mlp, x: str) -> str:
        routed = routed_experts(self, index, mlp, x)
        shared, shared_gate = shared_expert(self, index, mlp, x)
        return self.g.node("GatedAdd", [routed, shared, shared_gate], f"/model/layers.{index}/moe/GatedAdd", domain=MS_DOMAIN)
