"""Averages two checkpoints of the same model, weight by weight: (1 - w) * A + w * B.

worldloom-nano's stage 4 starts from such an average: the GPU-trained model (A) and its
terminal fine-tune on the CPU (B). B alone predicts terminal steps better but has forgotten
MCP; the average keeps most of both (scores in the model card).

Usage: native/.venv/bin/python -m world_model.average_checkpoints A_DIR B_DIR WEIGHT OUT_DIR
"""
import argparse
import os
import shutil

import torch
from transformers import Qwen3_5MoeForCausalLM

KEPT_FILES = ("tokenizer.json", "tokenizer_config.json", "generation_config.json")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("weight", type=float, help="share of B, between 0 and 1")
    parser.add_argument("out")
    args = parser.parse_args()
    if not 0 <= args.weight <= 1:
        parser.error(f"the weight is the share of B, between 0 and 1, not {args.weight}")
    a = Qwen3_5MoeForCausalLM.from_pretrained(args.a, dtype=torch.float32)
    b = Qwen3_5MoeForCausalLM.from_pretrained(args.b, dtype=torch.float32)
    theirs = b.state_dict()
    mine = a.state_dict()
    if {n: t.shape for n, t in mine.items()} != {n: t.shape for n, t in theirs.items()}:
        parser.error(f"{args.a} and {args.b} are not the same model (their weights differ in names or shapes)")
    a.load_state_dict({name: (1 - args.weight) * value + args.weight * theirs[name] for name, value in mine.items()})
    os.makedirs(args.out, exist_ok=True)
    a.save_pretrained(args.out, safe_serialization=True, max_shard_size="15MB")
    for name in KEPT_FILES:
        shutil.copyfile(os.path.join(args.a, name), os.path.join(args.out, name))
    print(f"averaged {args.a} and {args.b} ({args.weight:.2f} of the second) into {args.out}")


if __name__ == "__main__":
    main()
