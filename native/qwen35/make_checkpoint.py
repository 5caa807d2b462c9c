"""Make a seeded, random, tiny Qwen3.5-MoE checkpoint in the Hugging Face layout.

The model is built by transformers' own classes (Qwen3_5MoeForCausalLM for the text-only form,
Qwen3_5MoeForConditionalGeneration with a nested text_config and a tiny vision tower for the
conditional form), so every architectural feature of the real Qwen3.5-MoE is present: three Gated
DeltaNet linear-attention layers per gated full-attention layer, q/k norms, partial interleaved
multimodal rotary, top-k routed experts plus a gated shared expert. Only the sizes are small.

Usage: python -m qwen35.make_checkpoint --out DIR --seed N [--form causal|conditional] [--layers N] [--preset tiny|real-dims]
       [--full-attention-interval N] [--context-length N] [--dtype float32|bfloat16] [--chat]

--preset real-dims keeps the tiny vocabulary but has Qwen3.5-35B-A3B's per-layer dimensions
(hidden 2048, 256 experts top-8 plus the shared expert, its head sizes), two layers by default.
--full-attention-interval 4 gives it the real model's layer pattern (three linear-attention layers,
then one full-attention layer); --context-length raises the 4,096 positions the checkpoint declares
(the GPU bench reads 8,192-token prompts).

--chat makes the app tests' model instead of a parity model: replies end (the `<|im_end|>` row is
strengthened rather than weakened), the chat template has no think block, and the generation
defaults are greedy, so the simulation, evaluation and CLI tests store finished, repeatable samples.
"""

import argparse
import json
import sys
from pathlib import Path

import torch
from tokenizers import Tokenizer
from transformers import (
    GenerationConfig,
    Qwen3_5MoeConfig,
    Qwen3_5MoeForCausalLM,
    Qwen3_5MoeForConditionalGeneration,
    Qwen3_5MoeTextConfig,
)

from qwen35.storage import text_parts
from qwen35.tokenizer import PLAIN_ADDED_TOKENS, PLAIN_TEMPLATE, SPECIAL_TOKENS, tokenizer_config, train_bpe

HERE = Path(__file__).resolve().parent

BPE_MERGES = 400
CONTEXT_LENGTH = 4096


def train_tokenizer() -> Tokenizer:
    corpus = (HERE / "tokenizer_corpus.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    return train_bpe(corpus, BPE_MERGES)


def padded_vocab_size(tokenizer: Tokenizer) -> int:
    # The real model pads its embedding past the tokenizer (248,320 rows); keep that trait.
    return (tokenizer.get_vocab_size() + 63) // 64 * 64 + 64


# Per-layer sizes. "tiny" is the fixtures' model; "real-dims" has Qwen3.5-35B-A3B's per-layer
# dimensions (transformers' Qwen3_5MoeTextConfig defaults, documented as that model) for benches:
# ~0.8 B parameters a layer, 3.2 GB of fp32 per layer on disk. Its two default layers are one
# linear-attention and one full-attention layer (full_attention_interval 2), so both kinds run.
PRESETS = {
    "tiny": {
        "layers": 4,
        "full_attention_interval": 4,
        "mrope_section": [2, 1, 1],
        "hidden_size": 64,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "head_dim": 32,
        "linear_conv_kernel_dim": 4,
        "linear_key_head_dim": 16,
        "linear_value_head_dim": 16,
        "linear_num_key_heads": 2,
        "linear_num_value_heads": 4,
        "moe_intermediate_size": 32,
        "shared_expert_intermediate_size": 32,
        "num_experts": 8,
        "num_experts_per_tok": 2,
    },
    "real-dims": {
        "layers": 2,
        "full_attention_interval": 2,
        "mrope_section": [11, 11, 10],
        "hidden_size": 2048,
        "num_attention_heads": 16,
        "num_key_value_heads": 2,
        "head_dim": 256,
        "linear_conv_kernel_dim": 4,
        "linear_key_head_dim": 128,
        "linear_value_head_dim": 128,
        "linear_num_key_heads": 16,
        "linear_num_value_heads": 32,
        "moe_intermediate_size": 512,
        "shared_expert_intermediate_size": 512,
        "num_experts": 256,
        "num_experts_per_tok": 8,
    },
}


def text_config_fields(vocab_size: int, layers: int, ids: dict, preset: str = "tiny", interval: int | None = None, context_length: int = CONTEXT_LENGTH) -> dict:
    sizes = {k: v for k, v in PRESETS[preset].items() if k not in ("layers", "mrope_section")}
    if interval is not None:
        sizes["full_attention_interval"] = interval
    return {
        "vocab_size": vocab_size,
        "num_hidden_layers": layers,
        **sizes,
        "max_position_embeddings": context_length,
        "rms_norm_eps": 1e-6,
        "hidden_act": "silu",
        "tie_word_embeddings": False,
        "rope_parameters": {
            "rope_type": "default",
            "rope_theta": 10000000.0,
            "partial_rotary_factor": 0.25,
            "mrope_interleaved": True,
            "mrope_section": PRESETS[preset]["mrope_section"],
        },
        "bos_token_id": ids["<|endoftext|>"],
        "eos_token_id": ids["<|im_end|>"],
        "pad_token_id": ids["<|endoftext|>"],
    }


def build_model(form: str, vocab_size: int, layers: int, ids: dict, preset: str = "tiny", interval: int | None = None, context_length: int = CONTEXT_LENGTH):
    text = text_config_fields(vocab_size, layers, ids, preset, interval, context_length)
    if form == "causal":
        config = Qwen3_5MoeTextConfig(**text)
        config.architectures = ["Qwen3_5MoeForCausalLM"]
        return Qwen3_5MoeForCausalLM(config)
    vision = {
        "depth": 1,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_heads": 2,
        "patch_size": 4,
        "spatial_merge_size": 2,
        "temporal_patch_size": 2,
        "out_hidden_size": text["hidden_size"],
        "num_position_embeddings": 16,
    }
    config = Qwen3_5MoeConfig(
        text_config=text,
        vision_config=vision,
        image_token_id=ids["<|image_pad|>"],
        video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"],
        vision_end_token_id=ids["<|vision_end|>"],
        tie_word_embeddings=False,
    )
    config.architectures = ["Qwen3_5MoeForConditionalGeneration"]
    return Qwen3_5MoeForConditionalGeneration(config)


# Weight shaping (see scale_weights): how much of each output row is tied to the embedding of the
# token it follows, how strongly each layer writes into the residual stream, and the logit gain.
SUCCESSOR_SHARE = 0.35
BRANCH_SCALE = 0.5
LOGIT_GAIN = 6.0
WEAK_ROW = 0.05
# --chat: a constant residual channel (every embedding holds STOP_CHANNEL_VALUE in channel 0) that
# only the <|im_end|> row reads, which gives <|im_end|> a logit of about STOP_BIAS at every position:
# a bias (Qwen's LM head has none) that ends replies whatever the context; make_fixtures checks it.
STOP_CHANNEL_VALUE = 4.0
STOP_BIAS = 11.0
QK_SHARPNESS = 3.0


@torch.no_grad()
def scale_weights(model, generator: torch.Generator, real_vocab: int, weak_ids: list[int], stop_id: int | None = None) -> None:
    """Give the random model large, well separated logits that still depend on the context.

    transformers' initialisation (std 0.02) makes every logit nearly equal, so fp16 or int4 rounding
    would flip greedy choices. Here weights are drawn with std ~ 1 / sqrt(fan_in) (unit-scale
    activations), layer outputs are halved so the token's own embedding stays visible in the
    residual stream, and half of each LM-head row is the embedding of the token it "follows" under
    a random successor map. Greedy choices then usually win by several logits, while attention,
    the recurrent state and the experts still decide a share of the steps. Rows of the stop tokens
    and of the padding past the tokenizer are shrunk so greedy runs reach their budget and never
    emit an id the tokenizer cannot decode. With `stop_id` (the --chat model's <|im_end|>) that
    token gets a bias instead (STOP_BIAS), so replies end.
    """

    def normal(shape, std):
        return torch.randn(shape, generator=generator) * std

    stack, lm_head = text_parts(model)
    hidden = stack.config.hidden_size
    stack.embed_tokens.weight.copy_(normal(stack.embed_tokens.weight.shape, 1.0))
    for name, param in stack.named_parameters():
        if name.startswith("embed_tokens"):
            continue
        if name.endswith(("q_norm.weight", "k_norm.weight")):
            # (1 + weight) ≈ QK_SHARPNESS: attention scores spread by several units, so a head picks
            # out particular earlier tokens instead of averaging the whole history.
            param.copy_(QK_SHARPNESS - 1.0 + normal(param.shape, 0.1))
        elif name.endswith("norm.weight") and "linear_attn" not in name:
            # Zero-centred RMSNorm (output * (1 + weight)): a small spread exercises the offset.
            param.copy_(normal(param.shape, 0.1))
        elif name.endswith("linear_attn.norm.weight"):
            param.copy_(1.0 + normal(param.shape, 0.1))
        elif name.endswith("A_log"):
            param.copy_(torch.log(torch.rand(param.shape, generator=generator) * 0.3 + 0.01))
        elif name.endswith("dt_bias"):
            param.copy_(1.0 + normal(param.shape, 0.2))
        elif name.endswith("conv1d.weight"):
            param.copy_(normal(param.shape, 0.5))
        elif name.endswith("mlp.gate.weight"):
            param.copy_(normal(param.shape, 2.0 / hidden**0.5))
        elif param.dim() >= 2:
            fan_in = param.shape[-1]
            scale = BRANCH_SCALE if name.endswith(("o_proj.weight", "out_proj.weight", "down_proj", "down_proj.weight")) else 1.0
            param.copy_(normal(param.shape, scale / fan_in**0.5))
    embeddings = stack.embed_tokens.weight[:real_vocab]
    successor = torch.randperm(real_vocab, generator=generator)
    tied = torch.zeros_like(lm_head.weight)
    tied[successor] = embeddings
    free = normal(lm_head.weight.shape, 1.0)
    free = free / free.norm(dim=1, keepdim=True) * hidden**0.5
    lm_head.weight.copy_(LOGIT_GAIN / hidden**0.5 * (SUCCESSOR_SHARE * tied + (1 - SUCCESSOR_SHARE) * free))
    lm_head.weight[real_vocab:] *= WEAK_ROW
    for token_id in weak_ids:
        lm_head.weight[token_id] *= WEAK_ROW
    if stop_id is not None:
        stack.embed_tokens.weight[:, 0] = STOP_CHANNEL_VALUE
        lm_head.weight[:, 0] = 0.0
        lm_head.weight[stop_id] *= WEAK_ROW  # what is left of the row's context-dependent part
        # After the final RMSNorm the constant channel reads about STOP_CHANNEL_VALUE / rms, rms ≈ 1.3.
        lm_head.weight[stop_id, 0] = STOP_BIAS * 1.3 / STOP_CHANNEL_VALUE


def generation_config(ids: dict, greedy: bool = False) -> GenerationConfig:
    if greedy:
        # The --chat model: the app's tests rely on repeatable default runs.
        return GenerationConfig(
            bos_token_id=ids["<|endoftext|>"],
            eos_token_id=[ids["<|im_end|>"], ids["<|endoftext|>"]],
            pad_token_id=ids["<|endoftext|>"],
            do_sample=False,
        )
    # The sampling defaults Qwen ships for thinking mode; the engine must use them unless overridden.
    return GenerationConfig(
        bos_token_id=ids["<|endoftext|>"],
        eos_token_id=[ids["<|im_end|>"], ids["<|endoftext|>"]],
        pad_token_id=ids["<|endoftext|>"],
        do_sample=True,
        temperature=0.6,
        top_p=0.95,
        top_k=20,
        repetition_penalty=1.0,
    )


def make_checkpoint(
    out: Path,
    seed: int,
    form: str = "causal",
    layers: int | None = None,
    preset: str = "tiny",
    dtype: str = "float32",
    chat: bool = False,
    interval: int | None = None,
    context_length: int = CONTEXT_LENGTH,
) -> Path:
    if form not in ("causal", "conditional"):
        raise ValueError(f"--form must be causal or conditional, not {form!r}")
    if preset not in PRESETS:
        raise ValueError(f"--preset must be one of {', '.join(PRESETS)}, not {preset!r}")
    if dtype not in ("float32", "bfloat16"):
        raise ValueError(f"--dtype must be float32 or bfloat16, not {dtype!r}")
    if interval is not None and interval < 1:
        raise ValueError(f"--full-attention-interval must be 1 or more, not {interval}")
    if context_length < 1024:
        raise ValueError(f"--context-length must be at least 1024 (a world-model step needs that much), not {context_length}")
    interval = PRESETS[preset]["full_attention_interval"] if interval is None else interval
    layers = PRESETS[preset]["layers"] if layers is None else layers
    if layers < interval or layers % interval:
        raise ValueError(f"--layers must be a multiple of {interval} for --preset {preset} and this interval ({interval - 1} linear-attention + 1 full), not {layers}")
    torch.manual_seed(seed)
    tokenizer = train_tokenizer()
    ids = {token: tokenizer.token_to_id(token) for token in SPECIAL_TOKENS + PLAIN_ADDED_TOKENS}
    model = build_model(form, padded_vocab_size(tokenizer), layers, ids, preset, interval, context_length)
    generator = torch.Generator().manual_seed(seed)
    if chat:
        scale_weights(model, generator, tokenizer.get_vocab_size(), [ids["<|endoftext|>"]], ids["<|im_end|>"])
    else:
        scale_weights(model, generator, tokenizer.get_vocab_size(), [ids["<|im_end|>"], ids["<|endoftext|>"]])
    model.generation_config = generation_config(ids, greedy=chat)
    if dtype == "bfloat16":
        # What the real checkpoints ship; halves the file. Every engine reads the same rounded values.
        model = model.to(torch.bfloat16)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out, safe_serialization=True)
    tokenizer.save(str(out / "tokenizer.json"))
    (out / "tokenizer_config.json").write_text(json.dumps(tokenizer_config(tokenizer, context_length, PLAIN_TEMPLATE if chat else None), indent=2) + "\n")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Make a seeded tiny Qwen3.5-MoE checkpoint (Hugging Face layout).")
    parser.add_argument("--out", required=True, type=Path, help="folder to write the checkpoint into")
    parser.add_argument("--seed", required=True, type=int, help="random seed; the same seed gives the same bytes")
    parser.add_argument("--form", default="causal", help="causal (Qwen3_5MoeForCausalLM) or conditional (…ForConditionalGeneration)")
    parser.add_argument("--layers", default=None, type=int, help="decoder layers: tiny a multiple of 4 (default 4), real-dims a multiple of 2 (default 2)")
    parser.add_argument("--preset", default="tiny", help="tiny (default, the fixtures' sizes) or real-dims (Qwen3.5-35B-A3B's per-layer sizes)")
    parser.add_argument("--full-attention-interval", default=None, type=int, help="one full-attention layer every N layers (default: the preset's; 4 is the real model's)")
    parser.add_argument("--context-length", default=CONTEXT_LENGTH, type=int, help=f"positions the checkpoint declares (default {CONTEXT_LENGTH})")
    parser.add_argument("--dtype", default="float32", help="float32 (default) or bfloat16 (as the real checkpoints are stored)")
    parser.add_argument("--chat", action="store_true", help="the app tests' model: replies end, no think block, greedy defaults")
    args = parser.parse_args(argv)
    try:
        out = make_checkpoint(args.out, args.seed, args.form, args.layers, args.preset, args.dtype, args.chat, args.full_attention_interval, args.context_length)
    except ValueError as error:
        print(f"make_checkpoint: {error}", file=sys.stderr)
        return 2
    print(f"wrote {args.preset} {args.form} Qwen3.5-MoE checkpoint (seed {args.seed}) to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
