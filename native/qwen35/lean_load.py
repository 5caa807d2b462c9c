"""Load a Qwen3.5-MoE checkpoint for conversion with one copy of its weights in memory.

transformers' from_pretrained keeps the safetensors files memory-mapped while it also builds its
own float32 tensors, and fuses the per-expert tensors through a temporary stack: on a checkpoint
with 256 experts a layer that peaks at about 2.2x the weight size. The converter only needs the
weights, so here the model is built empty (no initialisation) and every tensor is read from the
file straight into its parameter (per-expert tensors into their slice of the fused expert
parameters) with ordinary reads, one tensor at a time.

Anything this loader does not recognise (a key with no parameter, a parameter no key fills, a
dtype it cannot read) makes `load_lean` return None, and the caller falls back to from_pretrained.
"""

import json
import re
from pathlib import Path

import numpy as np
import torch

DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16, "F64": torch.float64}
EXPERT = re.compile(r"^(?P<base>.*\.mlp\.experts)\.(?P<expert>\d+)\.(?P<part>gate|up|down)_proj\.weight$")


def safetensors_entries(hf_dir: Path) -> dict:
    """name -> (file, dtype, shape, start, end) for every tensor of the checkpoint's safetensors."""
    index = hf_dir / "model.safetensors.index.json"
    files = sorted(set(json.loads(index.read_text())["weight_map"].values())) if index.is_file() else ["model.safetensors"]
    entries = {}
    for name in files:
        path = hf_dir / name
        with open(path, "rb") as f:
            size = int.from_bytes(f.read(8), "little")
            header = json.loads(f.read(size))
        base = 8 + size
        for key, info in header.items():
            if key == "__metadata__":
                continue
            start, end = info["data_offsets"]
            entries[key] = (path, info["dtype"], tuple(info["shape"]), base + start, base + end)
    return entries


def read_into(entry, target: torch.Tensor, files: dict) -> None:
    path, dtype, shape, start, end = entry
    if tuple(target.shape) != shape:
        raise ValueError(f"{path.name}: a tensor of shape {shape} does not fit its parameter {tuple(target.shape)}")
    f = files.setdefault(path, open(path, "rb"))
    f.seek(start)
    if DTYPES[dtype] == target.dtype and target.is_contiguous():
        view = memoryview(target.numpy()).cast("B")
        if f.readinto(view) != end - start:
            raise ValueError(f"{path.name} is truncated")
        return
    raw = torch.frombuffer(bytearray(f.read(end - start)), dtype=DTYPES[dtype]).reshape(shape)
    target.copy_(raw)


@torch.no_grad()
def load_lean(hf_dir: Path, model_class, config):
    from transformers.initialization import no_init_weights

    try:
        entries = safetensors_entries(hf_dir)
    except (OSError, ValueError, KeyError):
        return None
    if any(info[1] not in DTYPES for info in entries.values()):
        return None
    with no_init_weights():
        model = model_class._from_config(config, dtype=torch.float32)
    params = dict(model.named_parameters())
    # Keys transformers itself drops on load (the multi-token-prediction head, the vision tower of
    # a causal model): the same patterns, from the class.
    ignored = [re.compile(p) for p in (getattr(model_class, "_keys_to_ignore_on_load_unexpected", None) or [])]
    filled: dict[str, int] = {}
    files: dict = {}
    try:
        for key, entry in entries.items():
            if key in params:
                read_into(entry, params[key], files)
                filled[key] = filled.get(key, 0) + 1
                continue
            match = EXPERT.match(key)
            if not match:
                if any(p.search(key) for p in ignored):
                    continue
                return None
            base, expert, part = match["base"], int(match["expert"]), match["part"]
            if part == "down":
                name, target = f"{base}.down_proj", None
                if name in params:
                    target = params[name][expert]
            else:
                name, target = f"{base}.gate_up_proj", None
                if name in params:
                    half = params[name].shape[1] // 2
                    target = params[name][expert, :half] if part == "gate" else params[name][expert, half:]
            if target is None:
                return None
            read_into(entry, target, files)
            filled[name] = filled.get(name, 0) + 1
    finally:
        for f in files.values():
            f.close()
    if getattr(config.get_text_config(), "tie_word_embeddings", False) or getattr(config, "tie_word_embeddings", False):
        model.tie_weights()
        filled.setdefault("lm_head.weight", 1)
    for name, param in params.items():
        # Fused expert parameters come from one tensor, or from one per expert (two for gate_up).
        allowed = {1}
        if name.endswith("experts.gate_up_proj"):
            allowed.add(2 * param.shape[0])
        elif name.endswith("experts.down_proj"):
            allowed.add(param.shape[0])
        if filled.get(name, 0) not in allowed:
            return None
    return model.eval()


def same_weights(a, b) -> bool:
    """Whether two models hold bit-identical parameters (for the loader's test)."""
    sa, sb = a.state_dict(), b.state_dict()
    return sa.keys() == sb.keys() and all(np.array_equal(sa[k].numpy(), sb[k].numpy()) for k in sa)
