"""Convert a Qwen3.5-MoE checkpoint (Hugging Face layout) to the folder onnxruntime-genai's model
builder writes for qwen3_5_moe, with our own graph writer.

Usage: python -m qwen35.convert [--to onnx] --from HF_DIR --out DIR [--precision fp32|fp16|int4] [--layout tokens|embeds] [--no-check]
       python -m qwen35.convert --to gguf --from HF_DIR --out FILE.gguf [--type f32|f16|bf16|q8_0|q4_k_m|q5_k_m|q6_k]

--layout tokens writes the text-only decoder (input_ids, 2-D position_ids; what the builder writes
with exclude_embeds=false); --layout embeds writes the builder's default for the multimodal model
(inputs_embeds, 3-D position_ids [3, batch, seq]) plus a separate embedding model. After writing,
the folder is checked against transformers (see check.py) unless --no-check is given.

--to gguf writes one GGUF file for llama.cpp's qwen35moe instead (see gguf_convert.py).
"""

import argparse
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
import torch
from transformers import AutoConfig, GenerationConfig, Qwen3_5MoeForCausalLM, Qwen3_5MoeForConditionalGeneration

from qwen35.decoder import DecoderBuilder
from qwen35.graph import ExternalData, GraphWriter
from qwen35.storage import text_parts

PRECISIONS = ("fp32", "fp16", "int4")
LAYOUTS = ("tokens", "embeds")
# chat_template.jinja is where transformers 5 saves a checkpoint's chat template (no longer in
# tokenizer_config.json); without it the engine finds no template in the converted folder.
COPIED_FILES = ("tokenizer.json", "tokenizer_config.json", "chat_template.jinja", "generation_config.json", "config.json")


def model_class(hf_dir: Path):
    if not (hf_dir / "config.json").is_file():
        raise ValueError(f"{hf_dir} has no config.json: pass the folder of a Hugging Face Qwen3.5-MoE checkpoint")
    config = AutoConfig.from_pretrained(hf_dir)
    model_type = getattr(config, "model_type", "")
    if model_type == "qwen3_5_moe":
        return Qwen3_5MoeForConditionalGeneration, config
    if model_type == "qwen3_5_moe_text":
        return Qwen3_5MoeForCausalLM, config
    raise ValueError(f"{hf_dir} holds a {model_type!r} model; this converter reads Qwen3.5-MoE (qwen3_5_moe) only")


def load_checkpoint(hf_dir: Path):
    """The checkpoint as transformers loads it (the reference for every check)."""
    cls, _ = model_class(hf_dir)
    return cls.from_pretrained(hf_dir, dtype=torch.float32).eval()


def load_for_conversion(hf_dir: Path):
    """The same weights with one copy in memory (lean_load.py); from_pretrained where that cannot."""
    from qwen35.lean_load import load_lean

    cls, config = model_class(hf_dir)
    return load_lean(hf_dir, cls, config) or load_checkpoint(hf_dir)


def embedding_model(model, io_dtype, external=None) -> onnx.ModelProto:
    """input_ids (+ image_features for image-pad positions) → inputs_embeds, as the builder's embedding model."""
    stack, _ = text_parts(model)
    hidden = stack.config.hidden_size
    image_token = getattr(model.config, "image_token_id", None)
    g = GraphWriter("embedding_graph", external)
    ids = g.input("input_ids", np.int64, ["batch_size", "sequence_length"])
    features = g.input("image_features", io_dtype, ["num_image_tokens", hidden])
    table = g.weight("model.embed_tokens.weight", stack.embed_tokens.weight.detach().float().numpy().astype(io_dtype))
    text = g.node("Gather", [table, ids], "/embed_tokens/Gather")
    is_image = g.node("Equal", [ids, g.constant(image_token if image_token is not None else -1)], "/image/Equal")
    counts = g.node("Cast", [g.node("Reshape", [is_image, g.constant([-1])], "/image/flat/Reshape")], "/image/Cast", to=7)
    running = g.node("CumSum", [counts, g.constant(0)], "/image/CumSum")
    index = g.node("Max", [g.node("Sub", [running, g.constant(1)], "/image/Sub"), g.constant(0)], "/image/Max")
    index = g.node("Reshape", [index, g.node("Shape", [ids], "/image/Shape")], "/image/index/Reshape")
    # One zero row after the features keeps the gather valid when a prompt has no image.
    padded = g.node("Concat", [features, g.constant(np.zeros((1, hidden)), io_dtype)], "/image/pad/Concat", axis=0)
    picked = g.node("Gather", [padded, index], "/image/Gather", axis=0)
    where = g.node("Unsqueeze", [is_image, g.constant([-1])], "/image/Unsqueeze")
    g.node("Where", [where, picked, text], "/embeds/Where", outputs=["inputs_embeds"])
    g.output("inputs_embeds", io_dtype, ["batch_size", "sequence_length", hidden])
    return g.model()


def genai_config(model, hf_dir: Path, layout: str, io_dtype) -> dict:
    stack, _ = text_parts(model)
    c = stack.config
    generation = GenerationConfig.from_pretrained(hf_dir) if (hf_dir / "generation_config.json").is_file() else None

    def pick(key, fallback):
        value = getattr(generation, key, None) if generation is not None else None
        return fallback if value is None else value

    eos = pick("eos_token_id", c.eos_token_id)
    pad = pick("pad_token_id", c.pad_token_id if c.pad_token_id is not None else (eos[0] if isinstance(eos, list) else eos))
    inputs = {"input_ids": "input_ids"} if layout == "tokens" else {"inputs_embeds": "inputs_embeds"}
    inputs.update(
        {
            "attention_mask": "attention_mask",
            "position_ids": "position_ids",
            "past_key_names": "past_key_values.%d.key",
            "past_value_names": "past_key_values.%d.value",
        }
    )
    model_section = {
        "bos_token_id": pick("bos_token_id", c.bos_token_id if c.bos_token_id is not None else 1),
        "context_length": c.max_position_embeddings,
        "decoder": {
            "session_options": {"log_id": "onnxruntime-genai", "provider_options": []},
            "filename": "model.onnx",
            "head_size": c.head_dim,
            "hidden_size": c.hidden_size,
            "inputs": inputs,
            "outputs": {
                "logits": "logits",
                "present_key_names": "present.%d.key",
                "present_value_names": "present.%d.value",
            },
            "num_attention_heads": c.num_attention_heads,
            "num_hidden_layers": len(c.layer_types),
            "num_key_value_heads": c.num_key_value_heads,
        },
        "eos_token_id": eos,
        "pad_token_id": pad,
        "type": "qwen3_5_moe_text" if layout == "tokens" else "qwen3_5_moe",
        "vocab_size": c.vocab_size,
    }
    if layout == "embeds":
        model_section["embedding"] = {
            "filename": "embedding.onnx",
            "inputs": {"input_ids": "input_ids", "image_features": "image_features"},
            "outputs": {"inputs_embeds": "inputs_embeds"},
        }
        for key in ("image_token_id", "vision_start_token_id"):
            if getattr(model.config, key, None) is not None:
                model_section[key] = getattr(model.config, key)
    search = {
        "diversity_penalty": 0.0,
        "do_sample": bool(pick("do_sample", False)),
        "early_stopping": True,
        "length_penalty": 1.0,
        "max_length": c.max_position_embeddings,
        "min_length": 0,
        "no_repeat_ngram_size": 0,
        "num_beams": 1,
        "num_return_sequences": 1,
        "past_present_share_buffer": True,
        "repetition_penalty": float(pick("repetition_penalty", 1.0)),
        "temperature": float(pick("temperature", 1.0)),
        "top_k": int(pick("top_k", 50)),
        "top_p": float(pick("top_p", 1.0)),
    }
    return {"model": model_section, "search": search}


# The embedding model stays one file unless its table nears protobuf's 2 GiB limit (a real
# vocabulary of 248,320 rows at hidden 2,048 is 2 GB in fp32).
EMBEDDING_EXTERNAL_BYTES = 512 * 1024 * 1024


def write_onnx(path: Path, build, threshold: int = 1024) -> None:
    """Build a graph with its large initializers streamed to PATH.data, then save the (small) proto.

    `build(external)` returns the ModelProto; the .data file is removed when nothing went into it.
    """
    data = path.with_name(path.name + ".data")
    with ExternalData(data, threshold) as external:
        model = build(external)
    onnx.save_model(model, path)
    if not external.written:
        data.unlink()


def convert(hf_dir: Path, out: Path, precision: str = "fp32", layout: str = "tokens", model=None) -> Path:
    if precision not in PRECISIONS:
        raise ValueError(f"--precision must be one of {', '.join(PRECISIONS)}, not {precision!r}")
    if layout not in LAYOUTS:
        raise ValueError(f"--layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
    model = model or load_for_conversion(hf_dir)
    out.mkdir(parents=True, exist_ok=True)
    builders = []

    def decoder(external):
        builders.append(DecoderBuilder(model, precision, layout, external))
        return builders[0].build()

    write_onnx(out / "model.onnx", decoder)
    io = builders[0].io
    for stale in ("embedding.onnx", "embedding.onnx.data"):
        if (out / stale).exists():
            (out / stale).unlink()
    if layout == "embeds":
        write_onnx(out / "embedding.onnx", lambda external: embedding_model(model, io, external), EMBEDDING_EXTERNAL_BYTES)
    (out / "genai_config.json").write_text(json.dumps(genai_config(model, hf_dir, layout, io), indent=4) + "\n")
    for name in COPIED_FILES:
        if (hf_dir / name).is_file():
            shutil.copyfile(hf_dir / name, out / name)
        elif (out / name).exists():
            (out / name).unlink()  # left by an earlier conversion into the same folder
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Convert a Qwen3.5-MoE checkpoint to the onnxruntime-genai folder layout or a GGUF file.")
    parser.add_argument("--to", default="onnx", help="onnx (default: an onnxruntime-genai folder) or gguf (one llama.cpp file)")
    parser.add_argument("--from", dest="source", required=True, type=Path, help="Hugging Face checkpoint folder")
    parser.add_argument("--out", required=True, type=Path, help="folder to write (onnx) or FILE.gguf (gguf)")
    parser.add_argument("--type", dest="gguf_type", default=None, help="gguf only: f32 (default), f16, bf16, q8_0, or q4_k_m, q5_k_m, q6_k (quantised by the llama.cpp node-llama-cpp ships)")
    parser.add_argument("--precision", default=None, help="onnx only: fp32 (default), fp16 or int4")
    parser.add_argument("--layout", default=None, help="onnx only: tokens (input_ids, default) or embeds (inputs_embeds + embedding.onnx)")
    parser.add_argument("--no-check", action="store_true", help="skip the onnxruntime-vs-transformers check")
    args = parser.parse_args(argv)
    if args.to not in ("onnx", "gguf"):
        print(f"convert: --to must be onnx or gguf, not {args.to!r}", file=sys.stderr)
        return 2
    if args.to == "gguf":
        if args.precision is not None or args.layout is not None:
            print("convert: --precision and --layout are for --to onnx; a GGUF takes --type f32|f16|bf16|q8_0|q4_k_m|q5_k_m|q6_k", file=sys.stderr)
            return 2
        return main_gguf(args)
    if args.gguf_type is not None:
        print("convert: --type is for --to gguf; the onnx converter takes --precision fp32|fp16|int4", file=sys.stderr)
        return 2
    args.precision, args.layout = args.precision or "fp32", args.layout or "tokens"
    try:
        convert(args.source, args.out, args.precision, args.layout)
        if not args.no_check:
            from qwen35.check import check_folder

            report = check_folder(args.source, args.out, args.precision)
            print(report.summary())
            if not report.ok:
                print("convert: the converted folder does not match transformers (see above)", file=sys.stderr)
                if args.precision == "fp16":
                    print(
                        "convert: fp16 keeps activations, caches and recurrent states in half precision, as the "
                        "builder does; where a router scores two experts almost equally it can pick the other one "
                        "and the following logits shift. Use --precision fp32 or int4 for exact parity.",
                        file=sys.stderr,
                    )
                return 1
    except (ValueError, OSError) as error:
        print(f"convert: {error}", file=sys.stderr)
        return 2
    print(f"wrote {args.precision} {args.layout} Qwen3.5-MoE folder to {args.out}")
    return 0


def main_gguf(args) -> int:
    from qwen35.gguf_convert import ConversionError, convert_gguf

    try:
        convert_gguf(args.source, args.out, args.gguf_type or "f32")
    except (ConversionError, OSError) as error:
        print(f"convert: {error}", file=sys.stderr)
        return 2
    print(f"wrote {args.gguf_type or 'f32'} GGUF (qwen35moe) to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
