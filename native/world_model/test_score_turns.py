"""score_turns.py: a turn counts as exact only when the model's most likely token is the recorded
one at every position of it, which is when greedy decoding would have written it."""
import json
import subprocess
import sys
from pathlib import Path

import torch
from transformers import Qwen3_5MoeForCausalLM

from world_model import score_turns, train

HERE = Path(__file__).parent


def greedy_continuation(model, prompt, n):
    ids = list(prompt)
    with torch.no_grad():
        for _ in range(n):
            ids.append(int(model(torch.tensor([ids])).logits[0, -1].argmax()))
    return ids


def test_a_turn_the_model_would_write_is_exact_and_one_wrong_token_is_not(tiny_checkpoint, tmp_path):
    model = Qwen3_5MoeForCausalLM.from_pretrained(str(tiny_checkpoint), dtype=torch.float32).eval()
    prompt = [5, 17, 42, 9, 101, 33, 7, 64]
    written = greedy_continuation(model, prompt, 6)  # what greedy decoding writes after the prompt
    wrong = list(written)
    wrong[-2] = (wrong[-2] + 1) % 250 + 3  # the turn's second-to-last token is not the model's choice
    samples = [
        {"id": "right", "domain": "terminal", "kind": "session", "split": "test", "ids": written, "spans": [[8, 14]]},
        {"id": "wrong", "domain": "mcp", "kind": "session", "split": "test", "ids": wrong, "spans": [[8, 14]]},
        {"id": "trained", "domain": "web", "kind": "session", "split": "train", "ids": wrong, "spans": [[8, 14]]},
    ]
    path = tmp_path / "samples.jsonl"
    path.write_text("".join(json.dumps(s) + "\n" for s in samples))
    scores = score_turns.score(model, train.load_samples(str(path), "test"), 0, torch.device("cpu"), 4096)
    assert scores["terminal"] == {"turns": 1, "exact": 1.0, "token_accuracy": 1.0}
    assert scores["terminal:samples.jsonl"]["exact"] == 1.0
    assert scores["mcp"]["exact"] == 0.0
    # Five of its six tokens are still the model's choice; the one after the wrong token is not
    # guaranteed, so at least 4 of 6.
    assert 4 / 6 <= scores["mcp"]["token_accuracy"] < 1.0
    assert "web" not in scores  # training samples are not scored


def test_the_command_line_compares_checkpoints_and_refuses_missing_files(tiny_checkpoint, tmp_path):
    path = tmp_path / "samples.jsonl"
    path.write_text(json.dumps({"id": "a", "domain": "terminal", "kind": "session", "split": "test", "ids": [5, 6, 7, 8], "spans": [[2, 4]]}) + "\n")
    out = tmp_path / "scores.json"
    result = subprocess.run([sys.executable, "-m", "world_model.score_turns", str(path), "--checkpoint", str(tiny_checkpoint),
                             "--device", "cpu", "--json", str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    scores = json.loads(out.read_text())
    assert list(scores) == [str(tiny_checkpoint)] and scores[str(tiny_checkpoint)]["terminal"]["turns"] == 1
    missing = subprocess.run([sys.executable, "-m", "world_model.score_turns", str(tmp_path / "nope.jsonl"), "--checkpoint", str(tiny_checkpoint)],
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "samples.ts" in missing.stderr
    not_a_model = subprocess.run([sys.executable, "-m", "world_model.score_turns", str(path), "--checkpoint", str(tmp_path)], capture_output=True, text=True)
    assert not_a_model.returncode == 2 and "qwen35.recover" in not_a_model.stderr
    only_train = tmp_path / "train.jsonl"
    only_train.write_text(path.read_text().replace('"test"', '"train"'))
    no_held_out = subprocess.run([sys.executable, "-m", "world_model.score_turns", str(only_train), "--checkpoint", str(tiny_checkpoint)], capture_output=True, text=True)
    assert no_held_out.returncode == 2 and "held-out" in no_held_out.stderr


def test_the_first_observation_token_is_scored_apart(tiny_checkpoint, tmp_path):
    model = Qwen3_5MoeForCausalLM.from_pretrained(str(tiny_checkpoint), dtype=torch.float32).eval()
    prompt = [5, 17, 42, 9, 101, 33, 7, 64]
    written = greedy_continuation(model, prompt, 6)
    header = written[8]  # the turn opens with the header's last token; the observation starts after it

    def changed(position):
        ids = list(written)
        ids[position] = (ids[position] + 1) % 250 + 3
        assert ids[position] != header
        return ids

    samples = [
        {"id": "right", "domain": "terminal", "kind": "session", "split": "test", "ids": written, "spans": [[8, 14]]},
        {"id": "wrong first", "domain": "mcp", "kind": "session", "split": "test", "ids": changed(9), "spans": [[8, 14]]},
        {"id": "wrong later", "domain": "web", "kind": "session", "split": "test", "ids": changed(12), "spans": [[8, 14]]},
    ]
    path = tmp_path / "samples.jsonl"
    path.write_text("".join(json.dumps(s) + "\n" for s in samples))
    scores = score_turns.score(model, train.load_samples(str(path), "test"), 0, torch.device("cpu"), 4096, header)
    assert (scores["terminal"]["first_token"], scores["terminal"]["missed_at_first"]) == (1.0, 0.0)
    assert (scores["mcp"]["exact"], scores["mcp"]["first_token"], scores["mcp"]["missed_at_first"]) == (0.0, 0.0, 1.0)
    assert (scores["web"]["exact"], scores["web"]["first_token"], scores["web"]["missed_at_first"]) == (0.0, 1.0, 0.0)
    # Without a tokenizer there is no header to find, and nothing is reported for it.
    assert "first_token" not in score_turns.score(model, train.load_samples(str(path), "test"), 0, torch.device("cpu"), 4096)["terminal"]
    assert score_turns.observation_header_id(str(tiny_checkpoint)) is None


def test_the_header_token_is_found_in_the_shipped_tokenizer(tmp_path):
    from tokenizers import Tokenizer

    shipped = HERE.parent.parent / "resources" / "models" / "worldloom-nano" / "tokenizer.json"
    (tmp_path / "tokenizer.json").write_bytes(shipped.read_bytes())
    header = score_turns.observation_header_id(str(tmp_path))
    tokenizer = Tokenizer.from_file(str(shipped))
    assert tokenizer.decode([header]) == ":**\n"
    # An observation's first token follows it in the tokens of a whole turn.
    turn = tokenizer.encode("**Environment Observation:**\ncat: notes.txt: No such file or directory").ids
    assert tokenizer.decode([turn[turn.index(header) + 1]]) == "cat"
