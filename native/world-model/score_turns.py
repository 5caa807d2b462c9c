"""Scores checkpoints on held-out samples the way a replay would read them, without converting.

A replay shows the model the real history and asks for the next observation; greedy decoding
writes the recorded observation exactly when, at every one of its tokens, the model's most
likely token is the recorded one. So one teacher-forced forward pass over a held-out sample
tells, for each of its assistant turns, whether greedy decoding would have matched that turn
exactly, and how many of its tokens it gets right. That ranks checkpoints from one training
run (on a lent GPU, where the app itself cannot run) before the slower `npm run eval:nano`,
which records fresh sessions and replays them through the converted model, decides.

Earlier turns of a sample are rendered as history (no think block), the last as the model
writes it; both count, since a replay asks for every step. Reported per domain, and for the
terminal samples of each file apart (classic, coined names, wide tools).

Usage: score_turns.py SAMPLES [SAMPLES ...] --checkpoint DIR [--checkpoint DIR ...] [--limit N] [--device cpu|cuda] [--json FILE]
"""
import argparse
import json
import os
import random
import sys
from collections import defaultdict

import torch

import train


@torch.no_grad()
def score(model, samples, pad_id, device, tokens_per_batch):
    """Per group (domain, and terminal file): turns, turns matched exactly, target tokens, tokens right."""
    autocast = device.type == "cuda"
    totals = defaultdict(lambda: [0, 0, 0, 0])
    model.eval()
    for batch in train.make_batches(samples, random.Random(0), tokens_per_batch, {}):
        ids, mask, _ = train.batch_tensors(batch, pad_id, device)
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=autocast):
            hidden = model.model(input_ids=ids, attention_mask=mask).last_hidden_state
        for b, sample in enumerate(batch):
            groups = [sample["domain"]] + ([f'terminal:{sample["source"]}'] if sample["domain"] == "terminal" else [])
            for start, end in sample["spans"]:
                # The token at position t is predicted from position t - 1.
                with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=autocast):
                    guess = model.lm_head(hidden[b, start - 1:end - 1]).float().argmax(-1)
                right = int((guess == ids[b, start:end]).sum())
                for group in groups:
                    t = totals[group]
                    t[0] += 1
                    t[1] += int(right == end - start)
                    t[2] += end - start
                    t[3] += right
    return {group: {"turns": t[0], "exact": t[1] / t[0], "token_accuracy": t[3] / max(1, t[2])} for group, t in sorted(totals.items())}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("samples", nargs="+", help="samples.ts output (.jsonl, .gz or .xz); their test split is scored")
    parser.add_argument("--checkpoint", action="append", required=True, help="a Hugging Face checkpoint (repeat to compare)")
    parser.add_argument("--limit", type=int, default=400, help="held-out samples per file and domain at most")
    parser.add_argument("--tokens-per-batch", type=int, default=65536)
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--json", default=None, help="also write the scores here")
    args = parser.parse_args()
    for path in args.samples:
        if not os.path.exists(path):
            parser.error(f"{path} does not exist: samples come from native/world-model/samples.ts")
    for path in args.checkpoint:
        if not os.path.exists(os.path.join(path, "config.json")):
            parser.error(f"{path} is not a Hugging Face checkpoint (no config.json): train.py writes one, and "
                         "native/qwen35/recover.py --onnx MODEL_DIR --out DIR recovers one from a converted fp32 folder")
    samples = []
    for path in args.samples:
        held_out = train.load_samples(path, "test")
        for domain in sorted({s["domain"] for s in held_out}):
            samples += [s for s in held_out if s["domain"] == domain][:args.limit]
    if not samples:
        parser.error("no held-out samples in those files: their split is all train. Score the samples.ts output of a "
                     "recording (record.ts holds a tenth of its sessions out), not a file of training samples only")
    device = torch.device(args.device)
    from transformers import Qwen3_5MoeForCausalLM

    results = {}
    for checkpoint in args.checkpoint:
        model = Qwen3_5MoeForCausalLM.from_pretrained(checkpoint, dtype=torch.float32).to(device)
        pad_id = model.config.pad_token_id
        results[checkpoint] = score(model, samples, pad_id, device, args.tokens_per_batch)
        for group, s in results[checkpoint].items():
            print(f"{checkpoint}  {group:<40} turns {s['turns']:>5}  exact {s['exact']:.3f}  tokens {s['token_accuracy']:.4f}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
