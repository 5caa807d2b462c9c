"""Trains worldloom-nano, a tiny Qwen3.5-MoE (transformers' Qwen3_5MoeForCausalLM: Gated
DeltaNet linear-attention layers and gated full-attention layers, routed experts plus a
shared expert) on the samples written by samples.ts, and saves it as a Hugging Face
checkpoint that `npm run model:convert` turns into the app's ONNX folder.

Loss on the assistant turns only (samples.ts spans) plus transformers' router balance loss.
Runs on CUDA when there is a GPU (bf16 autocast) and on the CPU otherwise; deterministic for a
seed on the CPU (a GPU's kernels may differ in the last bits). Checkpoints every
--checkpoint-every steps; rerunning the same run resumes.

Usage: native/.venv/bin/python -m world_model.train SAMPLES_JSONL TOKENIZER_DIR OUT_DIR
         [--steps N] [--seed N] [--minutes M] [--tokens-per-batch N] [--device cpu|cuda]
--minutes: on a lent GPU, measure the first steps and set --steps to what fits in M minutes.
"""
import argparse
import gzip
import hashlib
import json
import lzma
import math
import os
import random
import shutil
import time

import torch
import torch.nn.functional as F
from transformers import GenerationConfig, Qwen3_5MoeForCausalLM, Qwen3_5MoeTextConfig
from transformers.models.qwen3_5_moe.modeling_qwen3_5_moe import load_balancing_loss_func

LAYERS = "LLLALLLA"  # three Gated DeltaNet layers to one full-attention layer, as in Qwen3.5
CONTEXT_LENGTH = 16384
# MCP samples are mostly their ~4,000-token tool list (no loss there): a share per epoch is enough.
DOMAIN_SHARE = {"terminal": 1.0, "mcp": 0.6, "web": 1.0}
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json")


def model_config(vocab_size, ids):
    return Qwen3_5MoeTextConfig(
        vocab_size=vocab_size, hidden_size=192, num_hidden_layers=len(LAYERS),
        layer_types=["linear_attention" if k == "L" else "full_attention" for k in LAYERS],
        num_attention_heads=4, num_key_value_heads=2, head_dim=48,
        linear_conv_kernel_dim=4, linear_key_head_dim=32, linear_value_head_dim=32,
        linear_num_key_heads=2, linear_num_value_heads=4,
        moe_intermediate_size=128, shared_expert_intermediate_size=128, num_experts=8, num_experts_per_tok=2,
        max_position_embeddings=CONTEXT_LENGTH, rms_norm_eps=1e-6, hidden_act="silu", tie_word_embeddings=False,
        rope_parameters={"rope_type": "default", "rope_theta": 1000000.0, "partial_rotary_factor": 0.25,
                         "mrope_interleaved": True, "mrope_section": [2, 2, 2]},
        router_aux_loss_coef=0.01, output_router_logits=True,
        bos_token_id=ids["<|endoftext|>"], eos_token_id=ids["<|im_end|>"], pad_token_id=ids["<|endoftext|>"],
        architectures=["Qwen3_5MoeForCausalLM"],
    )


def generation_config(ids):
    # A world model should say what it most expects: low temperature, narrow nucleus.
    return GenerationConfig(bos_token_id=ids["<|endoftext|>"], eos_token_id=[ids["<|im_end|>"], ids["<|endoftext|>"]],
                            pad_token_id=ids["<|endoftext|>"], do_sample=True, temperature=0.3, top_p=0.9, top_k=20,
                            repetition_penalty=1.0, max_new_tokens=2048)


def load_samples(path, split):
    # A .gz or .xz file (how the samples travel to a lent GPU machine) reads the same.
    source = os.path.basename(path)
    opener = gzip.open if path.endswith(".gz") else lzma.open if path.endswith(".xz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [{**s, "source": source} for s in map(json.loads, f) if s["split"] == split]


def share_of(sample, shares):
    """A sample's share per epoch: its domain and kind's ("mcp/control"), else its domain's,
    times its file's (--source-share) when it has one."""
    share = shares.get(f'{sample["domain"]}/{sample.get("kind")}', shares.get(sample["domain"], 1.0))
    return share * shares.get(f'file:{sample.get("source")}', 1.0)


def share_value(parser, option, item, value):
    """A share from the command line, or a usage error that says what to write."""
    try:
        share = float(value)
    except ValueError:
        share = -1.0
    if not 0.0 <= share:
        parser.error(f"{option} {item}: the share is a number of 0 or more (1 = every sample once per epoch), e.g. 0.5")
    return share


def train_layers(parser, value, count):
    """The layer indexes of --train-layers, or a usage error that says what to write."""
    try:
        trained = {int(x) for x in value.split(",")}
    except ValueError:
        trained = set()
    if not trained or not all(0 <= i < count for i in trained):
        parser.error(f"--train-layers {value}: write layer indexes from 0 to {count - 1} separated by commas, e.g. 4,9")
    return trained


def make_batches(samples, rng, tokens_per_batch, shares):
    """Batches of similar length (padding stays small), in a seeded order."""
    group = [s for s in samples if rng.random() < share_of(s, shares)]
    rng.shuffle(group)
    batches = []
    for w in range(0, len(group), 512):
        window = sorted(group[w:w + 512], key=lambda s: len(s["ids"]))
        batch = []
        for s in window:
            longest = max(len(x["ids"]) for x in batch + [s])
            if batch and longest * (len(batch) + 1) > tokens_per_batch:
                batches.append(batch)
                batch = []
            batch.append(s)
        if batch:
            batches.append(batch)
    rng.shuffle(batches)
    return batches


def batch_tensors(batch, pad_id, device):
    longest = max(len(s["ids"]) for s in batch)
    ids = torch.full((len(batch), longest), pad_id, dtype=torch.long)
    mask = torch.zeros((len(batch), longest), dtype=torch.long)
    labels = torch.full((len(batch), longest), -100, dtype=torch.long)
    for b, s in enumerate(batch):
        ids[b, :len(s["ids"])] = torch.tensor(s["ids"])
        mask[b, :len(s["ids"])] = 1
        for start, end in s["spans"]:
            labels[b, start:end] = ids[b, start:end]
    return ids.to(device), mask.to(device), labels.to(device)


def batch_loss(model, batch, pad_id, device, autocast):
    """The same loss as Qwen3_5MoeForCausalLM(labels=...) (mean cross-entropy of the target
    tokens plus the router balance loss), with the output head and softmax applied only where a
    target token is predicted: most positions are prompt (an MCP tool list, the history), and
    the 4,288-way head over every position was a quarter of a CPU step."""
    ids, mask, labels = batch_tensors(batch, pad_id, device)
    with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=autocast):
        out = model.model(input_ids=ids, attention_mask=mask, output_router_logits=True)
        targets = labels[:, 1:]
        predicted = targets != -100
        logits = model.lm_head(out.last_hidden_state[:, :-1][predicted])
    loss = F.cross_entropy(logits.float(), targets[predicted])
    aux = load_balancing_loss_func(out.router_logits, model.config.num_experts, model.config.num_experts_per_tok, mask)
    return loss + model.config.router_aux_loss_coef * aux, aux, int(predicted.sum())


@torch.no_grad()
def evaluate(model, samples, pad_id, device, autocast, tokens_per_batch):
    model.eval()
    total, tokens = 0.0, 0
    for batch in make_batches(samples, random.Random(0), tokens_per_batch, {}):
        loss, aux, n = batch_loss(model, batch, pad_id, device, autocast)
        total += (loss.item() - model.config.router_aux_loss_coef * aux.item()) * n
        tokens += n
    model.train()
    return total / max(1, tokens)


def save_checkpoint(model, tokenizer_dir, out_dir, ids):
    os.makedirs(out_dir, exist_ok=True)
    model.generation_config = generation_config(ids)
    # Shards under 15 MB: the lent GPU machine returns files of at most 16 MiB.
    model.save_pretrained(out_dir, safe_serialization=True, max_shard_size="15MB")
    for name in TOKENIZER_FILES:
        shutil.copyfile(os.path.join(tokenizer_dir, name), os.path.join(out_dir, name))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("samples")
    parser.add_argument("tokenizer_dir")
    parser.add_argument("out_dir")
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--minutes", type=float, default=None)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--tokens-per-batch", type=int, default=16384)
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--threads", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    parser.add_argument("--cpu-bf16", action="store_true",
                        help="bf16 autocast on the CPU too (on the 2-core avx512_bf16 machine of stage 4: 1.07 s a step against 1.17; a GPU always uses it)")
    parser.add_argument("--checkpoint-every", type=int, default=200)
    parser.add_argument("--init-from", default=None, help="start from this checkpoint's weights (a second stage of training)")
    parser.add_argument("--mcp-share", type=float, default=DOMAIN_SHARE["mcp"], help="share of MCP samples per epoch")
    parser.add_argument("--web-share", type=float, default=DOMAIN_SHARE["web"], help="share of web samples per epoch")
    parser.add_argument("--share", action="append", default=[], metavar="DOMAIN/KIND=X",
                        help="share per epoch of one domain's samples of one kind (session, template, control), e.g. mcp/control=0.5")
    parser.add_argument("--source-share", action="append", default=[], metavar="FILE=X",
                        help="share per epoch of the samples of one file (its name), times their domain/kind share, e.g. samples.jsonl=0.3")
    parser.add_argument("--extra-samples", action="append", default=[], metavar="JSONL",
                        help="more training samples (their train split), e.g. control-chats.ts's pairs through samples.ts")
    parser.add_argument("--stop-after", type=int, default=None,
                        help="stop after this many steps of the --steps schedule (its learning rate still decays over --steps)")
    parser.add_argument("--snapshot-every", type=int, default=0,
                        help="also save a Hugging Face checkpoint every N steps in OUT_DIR-stepN (to evaluate a run stopped early)")
    parser.add_argument("--train-layers", default=None, metavar="I,J",
                        help="train only these decoder layers (0-based), the rest frozen, e.g. the copies grow.py added: "
                             "what the model learned stays as it was while the new layers learn")
    args = parser.parse_args()
    shares = {**DOMAIN_SHARE, "mcp": args.mcp_share, "web": args.web_share}
    for item in args.share:
        key, _, value = item.partition("=")
        if "/" not in key or not value:
            parser.error(f"--share {item}: write DOMAIN/KIND=X, e.g. mcp/control=0.5")
        shares[key] = share_value(parser, "--share", item, value)
    for item in args.source_share:
        name, _, value = item.partition("=")
        if not name or not value:
            parser.error(f"--source-share {item}: write FILE=X, e.g. samples.jsonl=0.3")
        if name not in {os.path.basename(p) for p in [args.samples, *args.extra_samples]}:
            parser.error(f"--source-share {item}: {name} is not one of the sample files of this run")
        shares[f"file:{name}"] = share_value(parser, "--source-share", item, value)
    samples_ts, tokenizer_module = "tsx native/world_model/samples.ts", "native/.venv/bin/python -m world_model.train_tokenizer"
    for path, made_by in ((args.samples, samples_ts), *((p, samples_ts) for p in args.extra_samples), (os.path.join(args.tokenizer_dir, "tokenizer.json"), tokenizer_module)):
        if not os.path.exists(path):
            parser.error(f"{path} is missing: run {made_by} first, or the whole pipeline with npm run model:build")
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    if args.stop_after is not None and not 1 <= args.stop_after <= args.steps:
        parser.error("--stop-after must be between 1 and --steps")
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    autocast = device.type == "cuda" or args.cpu_bf16
    if device.type == "cpu" and args.cpu_bf16 and not (torch.cpu._is_avx512_bf16_supported() or torch.cpu._is_amx_tile_supported()):
        # Measured on a 2-core AVX2 EPYC: 11.7 s a step in bf16 against 1.76 in fp32 (the grown model of the card).
        print(f"warning: this CPU ({torch.backends.cpu.get_cpu_capability()}) has no bf16 instructions, so --cpu-bf16 is emulated "
              "and several times slower than fp32 here; leave it out on this machine (the weights then differ from a bf16 run's)", flush=True)

    with open(os.path.join(args.tokenizer_dir, "tokenizer.json"), encoding="utf-8") as f:
        tokenizer = json.load(f)
    ids = {t["content"]: t["id"] for t in tokenizer["added_tokens"]}
    vocab_size = (max(ids.values()) + 1 + 63) // 64 * 64
    config = model_config(vocab_size, ids)
    if args.init_from:
        model = Qwen3_5MoeForCausalLM.from_pretrained(args.init_from, dtype=torch.float32).to(device)
        config = model.config
        print(f"starting from the weights in {args.init_from}", flush=True)
    else:
        model = Qwen3_5MoeForCausalLM(config).to(device)
    params = sum(p.numel() for p in model.parameters())
    # A checkpoint grown by grow.py has more layers than LAYERS: report and key the run by its own.
    layers = "".join("A" if t == "full_attention" else "L" for t in config.layer_types)
    print(f"model: {params / 1e6:.2f}M parameters, vocab {vocab_size}, layers {layers}, device {device}", flush=True)
    if args.train_layers is not None:
        trained = train_layers(parser, args.train_layers, config.num_hidden_layers)
        for name, p in model.named_parameters():
            p.requires_grad_(name.startswith("model.layers.") and int(name.split(".")[2]) in trained)
        print(f"training layers {sorted(trained)} only: {sum(p.numel() for p in model.parameters() if p.requires_grad) / 1e6:.2f}M "
              "parameters, the rest frozen", flush=True)

    train = load_samples(args.samples, "train")
    for path in args.extra_samples:
        train += load_samples(path, "train")
    test = load_samples(args.samples, "test")[:300]
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=args.lr, betas=(0.9, 0.95), weight_decay=0.01)
    resume_path = os.path.join(args.out_dir, "training-state.pt")
    digest = hashlib.sha256()
    for path in [args.samples, *args.extra_samples]:
        with open(path, "rb") as f:
            digest.update(f.read())
    run_key = f"{args.seed}:{args.steps}:{args.lr}:{args.tokens_per_batch}:{layers}:{args.init_from}:{shares}{':' + args.train_layers if args.train_layers else ''}:{digest.hexdigest()}"
    step = 0
    if os.path.exists(resume_path) and args.minutes is None:
        state = torch.load(resume_path, map_location=device)
        if state.get("run") == run_key:
            model.load_state_dict(state["model"])
            optimizer.load_state_dict(state["optimizer"])
            step = state["step"]
            print(f"resumed at step {step}", flush=True)

    pad_id = ids["<|endoftext|>"]
    schedule, epoch = [], 0
    steps = args.steps
    started = time.time()
    model.train()
    seen, loss_sum, tokens_sum = 0, 0.0, 0
    last_step = args.stop_after or steps
    while step < last_step:
        while len(schedule) <= step:
            schedule += make_batches(train, random.Random(args.seed * 1000 + epoch), args.tokens_per_batch, shares)
            epoch += 1
        warmup = max(1, min(100, steps // 10))
        lr = args.lr * min(1.0, (step + 1) / warmup) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(step, steps) / steps)))
        for group in optimizer.param_groups:
            group["lr"] = lr
        loss, aux, n = batch_loss(model, schedule[step], pad_id, device, autocast)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_([p for p in model.parameters() if p.requires_grad], 1.0)
        optimizer.step()
        step += 1
        seen += 1
        loss_sum += (loss.item() - config.router_aux_loss_coef * aux.item()) * n
        tokens_sum += n
        if args.minutes is not None and seen == 30:
            per_step = (time.time() - started) / seen
            steps = max(step + 1, int(args.minutes * 60 / per_step))
            last_step = min(args.stop_after or steps, steps)
            print(f"{per_step:.3f} s/step: {steps} steps fit in {args.minutes} minutes", flush=True)
        if step % 50 == 0 or step == last_step:
            print(f"step {step}/{steps} loss {loss_sum / max(1, tokens_sum):.4f} aux {aux.item():.3f} lr {lr:.2e} "
                  f"{(time.time() - started) / seen:.2f} s/step", flush=True)
            loss_sum, tokens_sum = 0.0, 0
        if step % args.checkpoint_every == 0 and step < last_step and args.minutes is None:
            os.makedirs(args.out_dir, exist_ok=True)
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step, "run": run_key},
                       resume_path + ".tmp")
            os.replace(resume_path + ".tmp", resume_path)
        if args.snapshot_every and step % args.snapshot_every == 0 and step < last_step:
            save_checkpoint(model, args.tokenizer_dir, f"{args.out_dir}-step{step}", ids)
    if test:
        print(f"held-out loss {evaluate(model, test, pad_id, device, autocast, args.tokens_per_batch):.4f} on {len(test)} samples", flush=True)
    model = model.float().cpu()
    save_checkpoint(model, args.tokenizer_dir, args.out_dir, ids)
    with open(os.path.join(args.out_dir, "training.json"), "w", encoding="utf-8") as f:
        json.dump({"seed": args.seed, "steps": last_step, "schedule_steps": steps, "lr": args.lr, "tokens_per_batch": args.tokens_per_batch,
                   "device": str(device), "bf16": autocast, "parameters": params, "layers": layers, "init_from": args.init_from, "shares": shares,
                   "train_layers": args.train_layers,
                   "extra_samples": [os.path.basename(p) for p in args.extra_samples],
                   "minutes": round((time.time() - started) / 60, 1)}, f, indent=2)
    if os.path.exists(resume_path):
        os.remove(resume_path)
    print(f"saved {args.out_dir} after {last_step} steps in {(time.time() - started) / 60:.1f} min", flush=True)


if __name__ == "__main__":
    main()
