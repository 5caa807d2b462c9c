"""Grows a trained checkpoint by copying its full-attention layers, without changing what it computes.

worldloom-nano's misses on held-out terminal sessions are mostly lookups over the session's
history: whether a file was written earlier, and what it holds. In this architecture only the
full-attention layers can look a name up exactly (the Gated DeltaNet layers keep a fixed-size
state), and the nano has two of them. Training a larger model from scratch needs a GPU; this
inserts a copy of each full-attention layer right after it instead, so further training on a
CPU starts from the trained model and only has to teach the copies what to add.

Each copy keeps its attention weights (its queries and keys already attend somewhere useful)
but its two output projections are zero: the attention's o_proj, and the down projections of
every expert and of the shared expert. A zero output adds nothing to the residual stream, so
the grown model's logits equal the original's; the script checks that on random token ids
and exits 1 otherwise.

    native/.venv/bin/python -m world_model.grow --from CKPT --out DIR
"""
import argparse
import json
import re
import shutil
import sys
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file
from transformers import Qwen3_5MoeForCausalLM

LAYER_KEY = re.compile(r"^model\.layers\.(\d+)\.(.+)$")
# The projections that write into the residual stream; zero in a copy, so the copy adds nothing.
ZEROED_IN_COPY = re.compile(r"^(self_attn\.o_proj|mlp\.experts\.\d+\.down_proj|mlp\.shared_expert\.down_proj)\.weight$")


def read_state(folder: Path) -> dict[str, torch.Tensor]:
    state: dict[str, torch.Tensor] = {}
    for file in sorted(folder.glob("*.safetensors")):
        state.update(load_file(str(file)))
    if not state:
        raise SystemExit(f"{folder} holds no .safetensors weights: point --from at a Hugging Face checkpoint "
                         "(recover one from the shipped ONNX folder with python -m qwen35.recover).")
    return state


def grow(state: dict[str, torch.Tensor], layer_types: list[str]) -> tuple[dict[str, torch.Tensor], list[str]]:
    """Returns the grown weights and layer types: each full-attention layer followed by its copy."""
    new_index: dict[int, list[tuple[int, bool]]] = {}  # old layer -> [(new layer, is copy)]
    grown_types: list[str] = []
    for old, kind in enumerate(layer_types):
        new_index[old] = [(len(grown_types), False)]
        grown_types.append(kind)
        if kind == "full_attention":
            new_index[old].append((len(grown_types), True))
            grown_types.append(kind)
    grown: dict[str, torch.Tensor] = {}
    for key, tensor in state.items():
        match = LAYER_KEY.match(key)
        if not match:
            grown[key] = tensor
            continue
        old, rest = int(match.group(1)), match.group(2)
        for new, is_copy in new_index[old]:
            grown[f"model.layers.{new}.{rest}"] = torch.zeros_like(tensor) if is_copy and ZEROED_IN_COPY.match(rest) else tensor.clone()
    return grown, grown_types


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="source", required=True, help="the Hugging Face checkpoint to grow")
    parser.add_argument("--out", required=True, help="folder for the grown checkpoint")
    args = parser.parse_args()
    source, out = Path(args.source), Path(args.out)
    if out.resolve() == source.resolve():
        # Growing in place would replace the weights the check compares against.
        raise SystemExit(f"--out is the --from folder ({source}): write the grown checkpoint to another folder.")
    config = json.loads((source / "config.json").read_text())
    if "full_attention" not in config.get("layer_types", []):
        raise SystemExit(f"{source}/config.json names no full-attention layers: this grows a Qwen3.5-MoE checkpoint.")

    original_layers = len(config["layer_types"])
    grown, layer_types = grow(read_state(source), config["layer_types"])
    out.mkdir(parents=True, exist_ok=True)
    for name in ("generation_config.json", "tokenizer.json", "tokenizer_config.json", "chat_template.jinja"):
        if (source / name).exists():
            shutil.copy(source / name, out / name)
    config.update(layer_types=layer_types, num_hidden_layers=len(layer_types))
    (out / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    for stale in out.glob("model*.safetensors*"):
        stale.unlink()
    save_file(grown, str(out / "model.safetensors"), metadata={"format": "pt"})

    # The grown model must compute what the original did, before any training.
    torch.manual_seed(0)
    ids = torch.randint(3, config["vocab_size"], (2, 96))
    with torch.no_grad():
        before = Qwen3_5MoeForCausalLM.from_pretrained(str(source), dtype=torch.float32).eval()(ids).logits
        after = Qwen3_5MoeForCausalLM.from_pretrained(str(out), dtype=torch.float32).eval()(ids).logits
    gap = (before - after).abs().max().item()
    print(f"grew {source} from {original_layers} to {len(layer_types)} layers "
          f"({''.join('A' if t == 'full_attention' else 'L' for t in layer_types)}) in {out}; largest logit change {gap:.2e}")
    if gap > 1e-4:
        print("the grown model does not compute what the original did: a copied layer's output is not zero", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
