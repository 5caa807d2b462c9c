"""A view of a Qwen3.5-MoE checkpoint holding only its first N decoder layers.

Usage: python -m qwen35.first_layers --from HF_DIR --out DIR --layers N

The view's config.json declares N layers (layer_types cut to match); every other file is a
symbolic link to the original, so making it costs nothing. The converters read tensors by the
layers the config declares, so the view converts to the same weights without the deeper layers.
The GPU bench (bench/gpu-pack/run.sh) measures two depths of the same layers this way, to split a
step's time into a fixed part and a per-layer part.
"""

import argparse
import json
import sys
from pathlib import Path


def first_layers(hf_dir: Path, out: Path, layers: int) -> Path:
    config_path = hf_dir / "config.json"
    if not config_path.is_file():
        raise ValueError(f"{hf_dir} has no config.json: pass the folder of a Hugging Face Qwen3.5-MoE checkpoint")
    config = json.loads(config_path.read_text(encoding="utf-8"))
    text = config.get("text_config", config)
    total = text.get("num_hidden_layers")
    if not isinstance(total, int) or not 1 <= layers < total:
        raise ValueError(f"--layers must be between 1 and {total - 1 if isinstance(total, int) else '?'} (the checkpoint has {total} layers), not {layers}")
    text["num_hidden_layers"] = layers
    if isinstance(text.get("layer_types"), list):
        text["layer_types"] = text["layer_types"][:layers]
    out.mkdir(parents=True, exist_ok=True)
    for entry in hf_dir.iterdir():
        if entry.name != "config.json" and not (out / entry.name).exists():
            (out / entry.name).symlink_to(entry.resolve())
    (out / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Make a view of a checkpoint with only its first N layers.")
    parser.add_argument("--from", dest="source", required=True, type=Path, help="the checkpoint's folder (Hugging Face layout)")
    parser.add_argument("--out", required=True, type=Path, help="folder for the view")
    parser.add_argument("--layers", required=True, type=int, help="how many of the first layers to keep")
    args = parser.parse_args(argv)
    try:
        out = first_layers(args.source, args.out, args.layers)
    except ValueError as error:
        print(f"first_layers: {error}", file=sys.stderr)
        return 2
    print(f"wrote a view of the first {args.layers} layers of {args.source} to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
