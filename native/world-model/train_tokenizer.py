#!/usr/bin/python3
"""Learns the nano world model's byte-level BPE from the recorded training trajectories
(train split only) as the chat template renders them, and writes tokenizer.json and
tokenizer_config.json into the model folder.

Usage: /usr/bin/python3 native/world-model/train_tokenizer.py DATA_DIR MODEL_DIR [NUM_MERGES]
"""
import argparse
import json
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from hybrid_moe.tokenizer import GPT2_SPLIT, build_tokenizer, learn_merges, tokenizer_config  # noqa: E402

NUM_MERGES = 2000
CONTEXT_LENGTH = 4096
# The system prompt is sent with every request; counting it this many times gives its
# words tokens of their own without letting it crowd out the observations' vocabulary.
SYSTEM_PROMPT_WEIGHT = 50


def count_words(counter, text, weight=1):
    for word in GPT2_SPLIT.findall(text):
        counter[word] += weight


def main():
    parser = argparse.ArgumentParser(description="Learns the nano world model's BPE from recorded trajectories.")
    parser.add_argument("data_dir", help="holds system-prompts.json and trajectories.jsonl (written by record.ts)")
    parser.add_argument("model_dir", help="where tokenizer.json and tokenizer_config.json go")
    parser.add_argument("num_merges", nargs="?", type=int, default=NUM_MERGES)
    args = parser.parse_args()
    data_dir, model_dir, num_merges = args.data_dir, args.model_dir, args.num_merges
    words = Counter()
    with open(os.path.join(data_dir, "system-prompts.json"), encoding="utf-8") as f:
        for prompt in json.load(f).values():
            count_words(words, "system\n" + prompt, SYSTEM_PROMPT_WEIGHT)
    with open(os.path.join(data_dir, "trajectories.jsonl"), encoding="utf-8") as f:
        for line in f:
            trajectory = json.loads(line)
            if trajectory["split"] != "train":
                continue
            for turn, step in enumerate(trajectory["steps"], start=1):
                # The text between special tokens, as the chat template lays it out.
                count_words(words, f"user\n## Turn {turn}\n\n**Action:**\n{step['action']}")
                count_words(words, f"assistant\n**Environment Observation:**\n{step['observation']}")
                count_words(words, "\n")
    merges = learn_merges(words, num_merges)
    tokenizer, vocab = build_tokenizer(merges)
    os.makedirs(model_dir, exist_ok=True)
    with open(os.path.join(model_dir, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer, f, ensure_ascii=False, indent=1)
    with open(os.path.join(model_dir, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_config(vocab, CONTEXT_LENGTH), f, ensure_ascii=False, indent=2)
    print(f"tokenizer: {len(merges)} merges, {len(vocab)} tokens, from {sum(words.values())} words")


if __name__ == "__main__":
    main()
