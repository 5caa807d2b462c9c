"""Learns worldloom-nano's tokenizer from its own training chats (chats.jsonl, train split):
byte-level BPE with the Qwen pre-tokenizer split, the Qwen special tokens and the Qwen3.5
chat template of native/qwen35 (generation prompt opens <think>), so the shipped folder is
laid out like any Qwen3.5 tokenizer and the converter and engine treat it as one.

Usage: native/.venv/bin/python native/world-model/train_tokenizer.py CHATS_JSONL OUT_DIR [--merges N]
"""
import argparse
import json
import os
import sys

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "qwen35"))
# The converter's conventions: token lists, split pattern and chat template.
from make_checkpoint import PLAIN_ADDED_TOKENS, SPECIAL_TOKENS, SPLIT_PATTERN  # noqa: E402

CHAT_TEMPLATE = os.path.join(HERE, "..", "qwen35", "chat_template.jinja")


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
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(SPLIT_PATTERN), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tokenizer.decoder = decoders.ByteLevel()
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    trainer = trainers.BpeTrainer(vocab_size=len(alphabet) + len(SPECIAL_TOKENS) + merges, initial_alphabet=alphabet,
                                  special_tokens=SPECIAL_TOKENS, show_progress=False)
    tokenizer.train_from_iterator(corpus(chats_path), trainer=trainer)
    tokenizer.add_tokens(PLAIN_ADDED_TOKENS)
    return tokenizer


def tokenizer_config(tokenizer, context_length):
    with open(CHAT_TEMPLATE, encoding="utf-8") as f:
        template = f.read()
    added = {}
    for token in SPECIAL_TOKENS + PLAIN_ADDED_TOKENS:
        added[str(tokenizer.token_to_id(token))] = {
            "content": token, "lstrip": False, "normalized": False, "rstrip": False, "single_word": False,
            "special": token in SPECIAL_TOKENS,
        }
    return {
        "add_bos_token": False, "add_prefix_space": False, "added_tokens_decoder": added, "bos_token": None,
        "chat_template": template, "clean_up_tokenization_spaces": False, "eos_token": "<|im_end|>", "errors": "replace",
        "model_max_length": context_length, "pad_token": "<|endoftext|>", "split_special_tokens": False,
        "tokenizer_class": "Qwen2Tokenizer", "unk_token": None,
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("chats")
    parser.add_argument("out_dir")
    parser.add_argument("--merges", type=int, default=6000)
    parser.add_argument("--context", type=int, default=16384)
    args = parser.parse_args()
    if not os.path.exists(args.chats):
        parser.error(f"{args.chats} is missing: run native/world-model/chats.ts first, or npm run model:build")
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
