#!/usr/bin/python3
"""Trains the nano world model (a hybrid MoE decoder, native/hybrid_moe) on the samples
written by samples.ts, on the CPU, then exports it to the model folder in the
onnxruntime-genai layout the Worldloom ONNX engine loads.

Deterministic for a seed: a fixed number of steps over a seeded sample order. Checkpoints
every CHECKPOINT_EVERY steps (model, optimizer, step); rerunning resumes from the last one.

The system prompt is the same for every sample of a domain, so each batch holds one
domain: the prompt is run once (batch 1), its cache and state are broadcast to the
batch, and the rest of each sequence runs on top of them, as the engine's prefix cache
does at inference. Gradients flow through the shared prefix.

Usage: /usr/bin/python3 native/world-model/train.py DATA_DIR MODEL_DIR [--steps N] [--seed N]
"""
import argparse
import hashlib
import json
import math
import os
import random
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from hybrid_moe.model import DecoderConfig, HybridDecoder, check_incremental_matches_full, empty_states  # noqa: E402
from hybrid_moe.onnx_export import export_onnx, genai_config  # noqa: E402

MODEL_TYPE = "worldloom_nano_hybrid_moe"
TOKENS_PER_BATCH = 1536  # non-prefix tokens, padding included
# Share of each domain's samples used per epoch: the terminal goals are the hard ones, and
# MCP results are long, mostly boilerplate JSON that is learnt early.
DOMAIN_SHARE = {"terminal": 1.0, "mcp": 0.5}
CHECKPOINT_EVERY = 100
BALANCE_WEIGHT = 0.01


LAYER_KINDS = {"L": "linear_attention", "A": "full_attention"}


def nano_config(vocab_size, layers):
    return DecoderConfig(
        vocab_size=vocab_size, hidden=128,
        layer_types=[LAYER_KINDS[k] for k in layers],
        num_heads=4, num_kv_heads=2, head_size=32, linear_heads=2, linear_key_size=32, linear_value_size=32,
        conv_kernel=4, num_experts=4, experts_per_token=2, expert_hidden=256, context_length=4096)


def init_weights(model):
    """Small-model initialisation (the shared classes default to test-model weights)."""
    depth_scale = 1.0 / math.sqrt(2 * len(model.layers))
    for name, p in model.named_parameters():
        if name.endswith("norm.weight"):
            nn.init.ones_(p)
        elif name.endswith("gate.bias"):
            nn.init.constant_(p, 3.0)  # slow decay at first: linear attention remembers
        elif "conv_weight" in name:
            nn.init.normal_(p, 0.0, 0.3)
        elif name.endswith("mlp.gate_up"):
            nn.init.normal_(p, 0.0, 0.02)
        elif name.endswith("mlp.down") or name.endswith(".o.weight"):
            nn.init.normal_(p, 0.0, 0.02 * depth_scale)
        elif p.dim() >= 2:
            nn.init.normal_(p, 0.0, 0.02)
    model.lm_head.weight = model.embed.weight  # tied


def load_samples(data_dir):
    samples = []
    with open(os.path.join(data_dir, "samples.jsonl"), encoding="utf-8") as f:
        for line in f:
            s = json.loads(line)
            if s["split"] == "train":
                samples.append(s)
    return samples


def make_batches(samples, rng):
    """Batches of one domain and similar length, in a seeded order."""
    batches = []
    for domain in sorted({s["domain"] for s in samples}):
        group = [s for s in samples if s["domain"] == domain]
        rng.shuffle(group)
        group = group[:round(len(group) * DOMAIN_SHARE.get(domain, 1.0))]
        # Sort within windows so lengths in a batch are close but order stays random.
        for w in range(0, len(group), 256):
            window = sorted(group[w:w + 256], key=lambda s: len(s["ids"]))
            batch = []
            for s in window:
                longest = max([len(x["ids"]) - x["prefix"] for x in batch + [s]])
                if batch and longest * (len(batch) + 1) > TOKENS_PER_BATCH:
                    batches.append(batch)
                    batch = []
                batch.append(s)
            if batch:
                batches.append(batch)
    rng.shuffle(batches)
    return batches


def batch_tensors(batch, pad_id):
    prefix = batch[0]["prefix"]
    prefix_ids = torch.tensor([batch[0]["ids"][:prefix]])
    longest = max(len(s["ids"]) - prefix for s in batch)
    ids = torch.full((len(batch), longest), pad_id, dtype=torch.long)
    mask = torch.zeros(len(batch), prefix + longest, dtype=torch.long)
    mask[:, :prefix] = 1
    targets = torch.full((len(batch), longest), -100, dtype=torch.long)
    for b, s in enumerate(batch):
        rest = s["ids"][prefix:]
        ids[b, :len(rest)] = torch.tensor(rest)
        mask[b, prefix:prefix + len(rest)] = 1
        for start, end in s["spans"]:
            # Position t predicts token t+1: the span's tokens are predicted from one to the left.
            targets[b, start - 1 - prefix:end - 1 - prefix] = torch.tensor(s["ids"][start:end])
    return prefix_ids, ids, mask, targets


def batch_loss(model, batch, pad_id):
    prefix_ids, ids, mask, targets = batch_tensors(batch, pad_id)
    prefix = prefix_ids.shape[1]
    batch_size, length = ids.shape
    out = model(prefix_ids, mask[:1, :prefix], torch.arange(prefix).unsqueeze(0), *empty_states(model, 1))
    balance = model.balance_loss()
    states = [s.expand(batch_size, *s.shape[1:]) for s in out[1:]]
    positions = torch.arange(prefix, prefix + length).unsqueeze(0).expand(batch_size, length)
    logits = model(ids, mask, positions, *states)[0]
    balance = (balance + model.balance_loss()) / 2
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), ignore_index=-100)
    return loss, balance, int((targets != -100).sum())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("data_dir")
    parser.add_argument("model_dir")
    parser.add_argument("--steps", type=int, default=4500)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--layers", default="LALA", help="layer kinds in order: L linear attention, A full attention")
    # One thread: on a 2-core machine two OpenMP threads ran 2.4x slower per step than one
    # even when idle, 5-10x when the other core was busy (measured); try more on bigger machines.
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--checkpoint", default=None, help="checkpoint file (default DATA_DIR/checkpoint.pt)")
    parser.add_argument("--export-only", action="store_true")
    args = parser.parse_args()
    if not args.layers or set(args.layers) - set(LAYER_KINDS):
        parser.error(f"--layers {args.layers!r}: use only L (linear attention) and A (full attention), e.g. LALA")
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    for folder, name, made_by in ((args.model_dir, "tokenizer.json", "train_tokenizer.py"),
                                  (args.data_dir, "samples.jsonl", "samples.ts")):
        if not os.path.exists(os.path.join(folder, name)):
            parser.error(f"{os.path.join(folder, name)} is missing: run native/world-model/{made_by} first, "
                         "or the whole pipeline with npm run model:build")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    with open(os.path.join(args.model_dir, "tokenizer.json"), encoding="utf-8") as f:
        vocab = json.load(f)["model"]["vocab"]
    pad_id = vocab["<|endoftext|>"]
    config = nano_config(len(vocab), args.layers)
    model = HybridDecoder(config)
    init_weights(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.01)
    checkpoint_path = args.checkpoint or os.path.join(args.data_dir, "checkpoint.pt")
    # A checkpoint is resumed only by the run that wrote it: same seed, steps and samples.
    with open(os.path.join(args.data_dir, "samples.jsonl"), "rb") as f:
        run_key = f"{args.seed}:{args.steps}:{args.lr}:{args.layers}:{hashlib.sha256(f.read()).hexdigest()}"
    step = 0
    if os.path.exists(checkpoint_path):
        state = torch.load(checkpoint_path)
        if state.get("run") == run_key:
            model.load_state_dict(state["model"])
            optimizer.load_state_dict(state["optimizer"])
            step = state["step"]
            print(f"resumed from {checkpoint_path} at step {step}")
        elif not args.export_only:
            print(f"starting afresh over {checkpoint_path}: it was written by another run "
                  "(other seed, steps, lr, layers or samples); pass --checkpoint FILE to keep it")
    if args.export_only and step == 0:
        # Exporting untrained weights would overwrite the shipped model with noise.
        parser.error(f"--export-only: no checkpoint of this run at {checkpoint_path}; train first, or pass the "
                     "--seed, --steps, --lr and --layers it was trained with")
    params = sum(p.numel() for p in model.parameters())
    print(f"model: {params / 1e6:.2f}M parameters, vocab {len(vocab)}")

    if not args.export_only and step < args.steps:
        samples = load_samples(args.data_dir)
        # The sample order for every epoch comes from the seed alone, so a resumed run
        # sees the same batches as an uninterrupted one.
        schedule = []
        epoch = 0
        while len(schedule) < args.steps:
            schedule += make_batches(samples, random.Random(args.seed * 1000 + epoch))
            epoch += 1
        warmup = max(1, min(100, args.steps // 10))
        model.train()
        model.set_sparse_experts(True)
        started = time.time()
        seen, loss_sum, tokens_sum = 0, 0.0, 0
        while step < args.steps:
            lr = args.lr * min(1.0, (step + 1) / warmup) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * step / args.steps)))
            for group in optimizer.param_groups:
                group["lr"] = lr
            loss, balance, n = batch_loss(model, schedule[step], pad_id)
            optimizer.zero_grad()
            (loss + BALANCE_WEIGHT * balance).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            step += 1
            seen += 1
            loss_sum += loss.item() * n
            tokens_sum += n
            if step % 20 == 0 or step == args.steps:
                elapsed = time.time() - started
                print(f"step {step}/{args.steps} loss {loss_sum / tokens_sum:.4f} balance {balance.item():.3f} "
                      f"lr {lr:.2e} {elapsed / seen:.2f} s/step", flush=True)
                loss_sum, tokens_sum = 0.0, 0
            if step % CHECKPOINT_EVERY == 0 or step == args.steps:
                torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step,
                            "run": run_key},
                           checkpoint_path + ".tmp")
                os.replace(checkpoint_path + ".tmp", checkpoint_path)

    model.eval()
    model.set_sparse_experts(False)
    with torch.no_grad():
        check_incremental_matches_full(model, tolerance=1e-3)
        export_onnx(model, args.model_dir)
    with open(os.path.join(args.model_dir, "genai_config.json"), "w", encoding="utf-8") as f:
        json.dump(genai_config(config, vocab, MODEL_TYPE), f, indent=2)
    total = sum(os.path.getsize(os.path.join(args.model_dir, n)) for n in os.listdir(args.model_dir))
    print(f"exported {args.model_dir} ({total / 1e6:.1f} MB) after {step} steps")


if __name__ == "__main__":
    main()
