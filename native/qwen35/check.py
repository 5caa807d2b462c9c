"""Check a converted folder against transformers with onnxruntime (Python).

Three checks, on the built-in chat prompts and a random-id prompt:
1. one full pass: logits close to transformers' (run on the weights as stored);
2. greedy decoding from the cache: the same tokens as transformers' greedy generate;
3. the logits of token-by-token decoding equal those of one full pass over the same tokens.
fp32 and int4 logits must agree within a bound that grows with the logits' scale (see logit_bound);
fp16 logits are compared with a looser absolute bound (the whole graph runs in half precision); the
token comparison is exact for every precision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from qwen35.ort_runner import OrtDecoder
from qwen35.prompts import chat_prompts
from qwen35.reference import reference_cases

LOGIT_TOLERANCE = {"fp32": 2e-3, "int4": 2e-3, "fp16": 0.25}
# fp32 rounding differences between onnxruntime's and torch's kernels grow with the size of the
# values they round: a trained model whose logits reach ~22 differs by up to ~5e-3 over a
# 1,500-token prompt (about 2.4e-4 of its largest logit) while every greedy token matches. So the
# fp32/int4 bound is this share of the largest |logit| compared, never below LOGIT_TOLERANCE. A
# real conversion error is far above it: 1 % noise on one routed expert, or a 1 % scale on one
# norm, moves the same model's logits by 1e-2 to 7e-1 (2.7e-4 to 3e-2 of its largest logit,
# at least 8e-4 on the longest prompt) — test_convert.py converts such weights and sees the check fail.
RELATIVE_LOGIT_TOLERANCE = 5e-4
FP16_OUTLIER_SHARE = 0.1
FP16_TIE_GAP = 0.05


def logit_bound(precision: str, expected: np.ndarray) -> float:
    """The largest difference allowed from `expected` logits: absolute for fp16, scaled by the
    largest |logit| (with LOGIT_TOLERANCE as the floor) for fp32 and int4."""
    floor = LOGIT_TOLERANCE[precision]
    if precision == "fp16":
        return floor
    return max(floor, RELATIVE_LOGIT_TOLERANCE * float(np.abs(expected).max()))


def compare_logits(report: CheckReport, precision: str, label: str, got: np.ndarray, expected: np.ndarray) -> None:
    tolerance = logit_bound(precision, expected)
    per_position = np.abs(got - expected).max(axis=1)
    largest = float(per_position.max())
    if precision != "fp16":
        scale = float(np.abs(expected).max())
        report.record(
            largest <= tolerance,
            f"{label}: within {largest:.2e} (bound {tolerance:.2e}: {RELATIVE_LOGIT_TOLERANCE:g} × largest |logit| "
            f"{scale:.3g}, at least {LOGIT_TOLERANCE[precision]:g})",
        )
        return
    # A half-precision router can pick a different expert at an isolated position whose two best
    # experts score almost the same (onnxruntime's one-row fp16 kernels round differently from its
    # many-row ones, so cached decoding shows more of these); allow a few such positions, not many.
    outliers = int((per_position > tolerance).sum())
    allowed = max(2, int(FP16_OUTLIER_SHARE * len(per_position)))
    report.record(
        outliers <= allowed,
        f"{label}: within {tolerance} at all but {outliers} of {len(per_position)} positions "
        f"(at most {allowed} allowed; largest difference {largest:.2e})",
    )


def reference_gap(model, prompt: list[int], expected: list[int], step: int) -> float:
    with torch.no_grad():
        logits = model(torch.tensor([prompt + expected[:step]])).logits[0, -1].float()
    best = torch.topk(logits, 2).values
    return float(best[0] - best[1])


@dataclass
class CheckReport:
    precision: str
    lines: list[str] = field(default_factory=list)
    ok: bool = True

    def record(self, passed: bool, line: str) -> None:
        self.ok = self.ok and passed
        self.lines.append(("ok   " if passed else "FAIL ") + line)

    def summary(self) -> str:
        return "\n".join(self.lines)


def check_folder(
    hf_dir: Path, folder: Path, precision: str, tokens: int = 32, prompts=None, model=None, strict: bool = False
) -> CheckReport:
    """Compare `folder` with transformers. Unless `strict`, an fp16 run may leave transformers' greedy
    path only at a step where transformers' two best logits are within FP16_TIE_GAP (a tie that
    half precision cannot resolve); the line says so. fp32 and int4 must always be identical."""
    from qwen35.convert import load_checkpoint

    report = CheckReport(precision)
    model = model or load_checkpoint(hf_dir)
    if prompts is None:
        rng = np.random.default_rng(0)
        vocab = model.config.get_text_config().vocab_size
        random_prompt = rng.integers(3, min(vocab, 600), size=23).tolist()
        try:
            prompts = chat_prompts(hf_dir) + [random_prompt]
        except (ValueError, OSError) as error:
            # A checkpoint without a usable chat template is still checked, on plain token ids.
            report.lines.append(f"note the built-in chat prompts could not be rendered ({error}); checking random prompts")
            prompts = [random_prompt, rng.integers(3, min(vocab, 600), size=301).tolist()]
    cases = reference_cases(hf_dir, prompts, tokens, precision, model=model)
    decoder = OrtDecoder(folder)
    for case in cases:
        prompt, expected = case["promptIds"], case["reference"]
        label = f"prompt of {len(prompt)} tokens"
        with torch.no_grad():
            reference_logits = model(torch.tensor([prompt])).logits[0].float().numpy()
        full = decoder.logits(prompt)
        compare_logits(report, precision, f"{label}: full-pass logits vs transformers", full, reference_logits)
        produced, step_logits = decoder.greedy(prompt, len(expected))
        first = next((i for i, (a, b) in enumerate(zip(produced, expected)) if a != b), None)
        if first is None:
            report.record(True, f"{label}: {len(expected)} greedy tokens identical")
        else:
            gap = reference_gap(model, prompt, expected, first)
            tie = precision == "fp16" and not strict and gap < FP16_TIE_GAP
            report.record(tie, f"{label}: greedy tokens differ from step {first}, where transformers' two best logits are {gap:.3g} apart" + (" (an fp16 tie)" if tie else ""))
        whole = decoder.logits(prompt + produced[:-1])[len(prompt) - 1 :]
        compare_logits(report, precision, f"{label}: cached decoding vs one full pass", step_logits, whole)
    return report
