"""Learns worldloom-nano's tokenizer from its own training chats (chats.jsonl, train split):
byte-level BPE with the Qwen pre-tokenizer split, the Qwen special tokens and the Qwen3.5
chat template of native/qwen35 (generation prompt opens <think>), so the shipped folder is
laid out like any Qwen3.5 tokenizer and the converter and engine treat it as one.

Usage: native/.venv/bin/python -m world_model.train_tokenizer CHATS_JSONL OUT_DIR [--merges N]
"""
import argparse
import json
import os

# The converter's conventions: token lists, split pattern and chat template.
from qwen35.tokenizer import tokenizer_config, train_bpe


def corpus(chats_path):
    with open(chats_path, encoding="utf-8") as f:
        for line in f:
            chat = json.loads(line)
            if chat["split"] != "train":
                continue
            for message in chat["messages"]:
                yield message["content"]
            # The template's own words, so "<|im_start|>assistant\n" and friends merge the same way.
            yield "\nsystem\nuser\nassistant\n\n"


def train(chats_path, merges):
    return train_bpe(corpus(chats_path), merges)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("chats")
    parser.add_argument("out_dir")
    parser.add_argument("--merges", type=int, default=6000)
    parser.add_argument("--context", type=int, default=16384)
    args = parser.parse_args()
    if not os.path.exists(args.chats):
        parser.error(f"{args.chats} is missing: run native/world_model/chats.ts first, or npm run model:build")
    if args.merges < 1:
        parser.error("--merges must be at least 1")
    tokenizer = train(args.chats, args.merges)
    os.makedirs(args.out_dir, exist_ok=True)
    tokenizer.save(os.path.join(args.out_dir, "tokenizer.json"))
    with open(os.path.join(args.out_dir, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_config(tokenizer, args.context), f, indent=2)
        f.write("\n")
    print(f"tokenizer: {tokenizer.get_vocab_size()} tokens written to {args.out_dir}")


if __name__ == "__main__":
    main()
