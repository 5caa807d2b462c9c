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

Where the checkpoint has its tokenizer, also the turn's first observation token (the one after
the `**Environment Observation:**` header): how often it is the model's choice, and of the turns
missed, how many go wrong first there. That token decides between an error and the output, an
empty output and some, or a count; on stage 11 three in five missed terminal turns go wrong there.

Usage: native/.venv/bin/python -m world_model.score_turns SAMPLES [SAMPLES ...] --checkpoint DIR [--checkpoint DIR ...] [--limit N] [--device cpu|cuda] [--json FILE]
"""
import argparse
import json
import os
import random
import sys
from collections import defaultdict

import torch

from world_model import train


def observation_header_id(checkpoint):
    """The token that ends `**Environment Observation:**\n` in the checkpoint's tokenizer, or None without one."""
    path = os.path.join(checkpoint, "tokenizer.json")
    if not os.path.exists(path):
        return None
    from tokenizers import Tokenizer
    return Tokenizer.from_file(path).encode("**Environment Observation:**\n").ids[-1]


@torch.no_grad()
def score(model, samples, pad_id, device, tokens_per_batch, header_id=None):
    """Per group (domain, and terminal file): turns, turns matched exactly, target tokens, tokens
    right; with header_id, also turns with an observation token, its first right, and missed turns
    whose first wrong token is that one."""
    autocast = device.type == "cuda"
    totals = defaultdict(lambda: [0, 0, 0, 0, 0, 0, 0])
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
                hits = guess == ids[b, start:end]
                right = int(hits.sum())
                turn = sample["ids"][start:end]
                first = turn.index(header_id) + 1 if header_id in turn[:-1] else None
                for group in groups:
                    t = totals[group]
                    t[0] += 1
                    t[1] += int(right == end - start)
                    t[2] += end - start
                    t[3] += right
                    if first is not None:
                        t[4] += 1
                        t[5] += int(hits[first])
                        t[6] += int(right < end - start and int((~hits).nonzero()[0]) == first)
    results = {}
    for group, t in sorted(totals.items()):
        results[group] = {"turns": t[0], "exact": t[1] / t[0], "token_accuracy": t[3] / max(1, t[2])}
        if header_id is not None:
            missed = t[0] - t[1]
            results[group].update(first_token=t[5] / max(1, t[4]), missed_at_first=t[6] / max(1, missed))
    return results


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
            parser.error(f"{path} does not exist: samples come from native/world_model/samples.ts")
    for path in args.checkpoint:
        if not os.path.exists(os.path.join(path, "config.json")):
            parser.error(f"{path} is not a Hugging Face checkpoint (no config.json): train.py writes one, and "
                         "python -m qwen35.recover --onnx MODEL_DIR --out DIR recovers one from a converted fp32 folder")
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
        results[checkpoint] = score(model, samples, pad_id, device, args.tokens_per_batch, observation_header_id(checkpoint))
        for group, s in results[checkpoint].items():
            first = f"  first token {s['first_token']:.3f} (misses there {s['missed_at_first']:.2f})" if "first_token" in s else ""
            print(f"{checkpoint}  {group:<40} turns {s['turns']:>5}  exact {s['exact']:.3f}  tokens {s['token_accuracy']:.4f}{first}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
