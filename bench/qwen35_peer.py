"""The transformers peer of the Qwen3.5-MoE engine benchmark (bench/qwen35.bench.ts).

Greedy decoding with transformers' own Qwen3.5-MoE classes (PyTorch, CPU) on given prompt ids,
timing each generated token as it is produced. Prints one JSON object:
{"rounds": [{"tokens": [...], "prefillMs": x, "decodeTokensPerSecond": y}, ...]}.

Usage: qwen35_peer.py --hf DIR --prompt-ids FILE --tokens N --threads T --rounds R
"""

import argparse
import json
import sys
import time

import torch
from transformers import AutoModelForCausalLM
from transformers.generation.streamers import BaseStreamer


class TokenClock(BaseStreamer):
    """Records when generate() hands over each new token (the first call carries the prompt)."""

    def __init__(self):
        self.times = []
        self.prompt_seen = False

    def put(self, value):
        if not self.prompt_seen:
            self.prompt_seen = True
            return
        self.times.append(time.perf_counter())

    def end(self):
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hf", required=True)
    parser.add_argument("--prompt-ids", required=True)
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    with open(args.prompt_ids, encoding="utf-8") as handle:
        prompt = json.load(handle)
    model = AutoModelForCausalLM.from_pretrained(args.hf, dtype=torch.float32).eval()
    ids = torch.tensor([prompt])
    rounds = []
    with torch.inference_mode():
        # Warm-up: the first call allocates and picks kernels.
        model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False, max_new_tokens=4, pad_token_id=0)
        for _ in range(args.rounds):
            clock = TokenClock()
            started = time.perf_counter()
            out = model.generate(
                ids,
                attention_mask=torch.ones_like(ids),
                do_sample=False,
                max_new_tokens=args.tokens,
                min_new_tokens=args.tokens,
                pad_token_id=0,
                streamer=clock,
            )
            times = clock.times
            rounds.append(
                {
                    "tokens": out[0, len(prompt):].tolist(),
                    "prefillMs": (times[0] - started) * 1000,
                    "decodeTokensPerSecond": (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 else 0,
                }
            )
    json.dump({"rounds": rounds}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
