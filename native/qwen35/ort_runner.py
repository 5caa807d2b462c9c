"""Run a converted folder with onnxruntime (Python): full passes and greedy decoding from the cache."""

import json
from pathlib import Path

import numpy as np
import onnxruntime as ort

DTYPES = {"tensor(float)": np.float32, "tensor(float16)": np.float16}


class OrtDecoder:
    def __init__(self, folder: Path, threads: int = 1):
        self.folder = Path(folder)
        config = json.loads((self.folder / "genai_config.json").read_text())["model"]
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(self.folder / config["decoder"]["filename"]), options, providers=["CPUExecutionProvider"])
        self.embedding = None
        if "embedding" in config:
            self.embedding = ort.InferenceSession(str(self.folder / config["embedding"]["filename"]), options, providers=["CPUExecutionProvider"])
        self.inputs = {item.name: item for item in self.session.get_inputs()}
        self.three_d_positions = self.inputs["position_ids"].shape[0] == 3
        self.hidden = config["decoder"]["hidden_size"]

    def empty_state(self, batch: int) -> dict:
        state = {}
        for name, item in self.inputs.items():
            if not name.startswith("past_key_values."):
                continue
            dtype = DTYPES[item.type]
            if name.endswith(".key") or name.endswith(".value"):
                # kv_cache_dim is symbolic in the graph: the head size comes from the config.
                config = json.loads((self.folder / "genai_config.json").read_text())["model"]["decoder"]
                shape = [batch, item.shape[1], 0, config["head_size"]]
            else:
                shape = [batch] + list(item.shape[1:])
            state[name] = np.zeros(shape, dtype=dtype)
        return state

    def step(self, ids: np.ndarray, state: dict, past_length: int):
        """Run ids [batch, seq] after past_length cached tokens; returns (logits, new state)."""
        batch, length = ids.shape
        feeds = dict(state)
        feeds["attention_mask"] = np.ones((batch, past_length + length), dtype=np.int64)
        positions = np.broadcast_to(np.arange(past_length, past_length + length, dtype=np.int64), (batch, length))
        feeds["position_ids"] = np.ascontiguousarray(np.broadcast_to(positions, (3, batch, length)) if self.three_d_positions else positions)
        if self.embedding is not None:
            io = DTYPES[self.inputs["inputs_embeds"].type]
            features = np.zeros((0, self.hidden), dtype=io)
            feeds["inputs_embeds"] = self.embedding.run(None, {"input_ids": ids, "image_features": features})[0]
        else:
            feeds["input_ids"] = ids
        names = [item.name for item in self.session.get_outputs()]
        values = self.session.run(names, feeds)
        outputs = dict(zip(names, values))
        new_state = {name.replace("present.", "past_key_values.", 1): value for name, value in outputs.items() if name.startswith("present.")}
        return outputs["logits"], new_state

    def logits(self, ids: list[int]) -> np.ndarray:
        logits, _ = self.step(np.array([ids], dtype=np.int64), self.empty_state(1), 0)
        return logits[0].astype(np.float32)

    def greedy(self, prompt: list[int], tokens: int) -> tuple[list[int], np.ndarray]:
        """Greedy continuation from the cache, one token per step; also the logits of every step."""
        state = self.empty_state(1)
        logits, state = self.step(np.array([prompt], dtype=np.int64), state, 0)
        produced, step_logits = [], []
        last = logits[0, -1].astype(np.float32)
        for _ in range(tokens):
            step_logits.append(last)
            token = int(np.argmax(last))
            produced.append(token)
            logits, state = self.step(np.array([[token]], dtype=np.int64), state, len(prompt) + len(produced) - 1)
            last = logits[0, -1].astype(np.float32)
        return produced, np.stack(step_logits)
