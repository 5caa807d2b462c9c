"""Rebuild the committed Qwen3.5-MoE fixtures under src-main/engine/onnx/fixtures/qwen35/.

Usage: python -m qwen35.make_fixtures [--out DIR] [--only NAME ...]

hf/           the tiny causal checkpoint (Qwen3_5MoeForCausalLM), seed FIXTURE_SEED
tokens-fp32/  hf/ converted, input_ids layout
tokens-fp16/  hf/ converted to fp16 (fp16 inputs, caches and logits)
tokens-int4/  hf/ converted with MatMulNBits and QMoE 4-bit weights
embeds-fp32/  the conditional form of the same seed (…ForConditionalGeneration), inputs_embeds
              layout with embedding.onnx; its checkpoint is rebuilt in a temporary folder

Each ORT folder gets golden.json {"cases":[{"promptIds":[…],"reference":[…]}]}: transformers' greedy
tokens for the built-in chat prompts, run on the weights as that folder stores them. The folder is
then checked with onnxruntime (check.py) and the script fails if any check fails.
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

from qwen35.check import check_folder
from qwen35.convert import convert, load_checkpoint
from qwen35.make_checkpoint import make_checkpoint
from qwen35.prompts import chat_prompts
from qwen35.reference import reference_cases

HERE = Path(__file__).resolve().parent

FIXTURE_SEED = 35
GOLDEN_TOKENS = 32
DEFAULT_OUT = HERE.parent.parent / "src-main" / "engine" / "onnx" / "fixtures" / "qwen35"
FOLDERS = {
    "tokens-fp32": ("causal", "fp32", "tokens"),
    "embeds-fp32": ("conditional", "fp32", "embeds"),
    "tokens-fp16": ("causal", "fp16", "tokens"),
    "tokens-int4": ("causal", "int4", "tokens"),
}


def build_folder(name: str, source: Path, out: Path) -> bool:
    form, precision, layout = FOLDERS[name]
    folder = out / name
    model = load_checkpoint(source)
    convert(source, folder, precision, layout, model=model)
    prompts = chat_prompts(source)
    cases = reference_cases(source, prompts, GOLDEN_TOKENS, precision, model=load_checkpoint(source))
    short = [case for case in cases if len(case["reference"]) < 24]
    if short:
        print(f"{name}: a reference stopped after {len(short[0]['reference'])} tokens; golden runs need at least 24", file=sys.stderr)
        return False
    (folder / "golden.json").write_text(json.dumps({"cases": cases}) + "\n")
    report = check_folder(source, folder, precision, tokens=GOLDEN_TOKENS, prompts=prompts, model=load_checkpoint(source), strict=True)
    print(f"== {name}\n{report.summary()}")
    return report.ok


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Rebuild the committed Qwen3.5-MoE fixtures.")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"fixture root (default {DEFAULT_OUT})")
    parser.add_argument("--only", nargs="*", choices=["hf", *FOLDERS], help="rebuild only these folders")
    args = parser.parse_args(argv)
    wanted = args.only or ["hf", *FOLDERS]
    hf = args.out / "hf"
    if "hf" in wanted or not (hf / "config.json").is_file():
        make_checkpoint(hf, FIXTURE_SEED, "causal")
    ok = True
    with tempfile.TemporaryDirectory() as scratch:
        conditional = Path(scratch) / "conditional"
        for name in FOLDERS:
            if name not in wanted:
                continue
            form = FOLDERS[name][0]
            if form == "conditional" and not conditional.exists():
                make_checkpoint(conditional, FIXTURE_SEED, "conditional")
            ok = build_folder(name, conditional if form == "conditional" else hf, args.out) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
