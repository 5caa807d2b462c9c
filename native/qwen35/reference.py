"""Greedy reference tokens from transformers for a Qwen3.5-MoE checkpoint.

Usage: python -m qwen35.reference --hf HF_DIR (--prompt-ids FILE | --chat) --tokens N [--json] [--as-stored fp32|fp16|int4]

--prompt-ids reads a JSON array of token-id arrays; --chat (or no file) uses the built-in chat
prompts rendered with the checkpoint's template. --as-stored runs transformers on the weights
exactly as the converter stores them for that precision (fp16-rounded, or int4 quantized and
dequantized), which is the reference for a converted fp16 or int4 folder.
Prints {"cases":[{"promptIds":[…],"reference":[…]}]} with --json.
"""

import argparse
import json
import sys
from pathlib import Path

import torch
from transformers import GenerationConfig

from qwen35.storage import round_like_storage


def greedy_config(model, tokens: int) -> GenerationConfig:
    """Plain greedy decoding: none of the checkpoint's sampling defaults or penalties apply."""
    shipped = model.generation_config
    return GenerationConfig(
        do_sample=False,
        max_new_tokens=tokens,
        eos_token_id=shipped.eos_token_id,
        pad_token_id=shipped.pad_token_id,
        repetition_penalty=1.0,
    )


@torch.no_grad()
def greedy(model, prompt: list[int], tokens: int) -> list[int]:
    ids = torch.tensor([prompt], dtype=torch.long)
    output = model.generate(ids, attention_mask=torch.ones_like(ids), generation_config=greedy_config(model, tokens))
    return output[0, len(prompt) :].tolist()


def read_prompt_ids(path: Path) -> list[list[int]]:
    try:
        prompts = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"cannot read --prompt-ids {path}: {error}") from error
    if not isinstance(prompts, list) or not prompts or not all(
        isinstance(p, list) and p and all(isinstance(t, int) and t >= 0 for t in p) for p in prompts
    ):
        raise ValueError(f"--prompt-ids {path} must hold a JSON array of non-empty arrays of token ids, e.g. [[1, 2, 3]]")
    return prompts


def reference_cases(hf_dir: Path, prompts: list[list[int]], tokens: int, as_stored: str = "fp32", model=None) -> list[dict]:
    from qwen35.convert import load_checkpoint

    model = model or load_checkpoint(hf_dir)
    round_like_storage(model, as_stored)
    vocab = model.config.get_text_config().vocab_size
    for prompt in prompts:
        if max(prompt) >= vocab:
            raise ValueError(f"a prompt holds token id {max(prompt)}, outside the model's vocabulary of {vocab}")
    return [{"promptIds": prompt, "reference": greedy(model, prompt, tokens)} for prompt in prompts]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="transformers greedy reference for a Qwen3.5-MoE checkpoint")
    parser.add_argument("--hf", required=True, type=Path, help="Hugging Face checkpoint folder")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--prompt-ids", type=Path, help="JSON array of token-id arrays")
    source.add_argument("--chat", action="store_true", help="use the built-in chat prompts (the default)")
    parser.add_argument("--tokens", type=int, default=32, help="new tokens per prompt (default 32)")
    parser.add_argument("--as-stored", default="fp32", help="fp32 (default), fp16 or int4: round weights as the converter stores them")
    parser.add_argument("--json", action="store_true", help="print only the JSON result")
    args = parser.parse_args(argv)
    if args.tokens < 1:
        print("reference: --tokens must be at least 1", file=sys.stderr)
        return 2
    try:
        if args.prompt_ids:
            prompts = read_prompt_ids(args.prompt_ids)
        else:
            from qwen35.prompts import chat_prompts

            prompts = chat_prompts(args.hf)
        cases = reference_cases(args.hf, prompts, args.tokens, args.as_stored)
    except (ValueError, OSError) as error:
        print(f"reference: {error}", file=sys.stderr)
        return 2
    if not args.json:
        for case in cases:
            print(f"prompt of {len(case['promptIds'])} tokens -> {len(case['reference'])} tokens", file=sys.stderr)
    print(json.dumps({"cases": cases}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
