"""A LoRA adapter trained on a Worldloom export, from PEFT to GGUF to Worldloom.

worldloom-nano's weights are recovered from the shipped ONNX folder (qwen35.recover), a workspace
of terminal trajectories is imported and exported with the real CLI (prompt/completion, the world
model's steps), TRL's SFTTrainer trains a rank-4 LoRA on it for a few steps on the CPU, and
qwen35.lora_convert writes the adapter as GGUF. Then:
- llama.cpp (node-llama-cpp) with the adapter over the base GGUF gives transformers+PEFT's greedy
  tokens, and tokens other than the base model's: the adapter is applied, and applied right;
- `worldloom replay` with `--model base.gguf --model base.gguf --adapter none --adapter lora.gguf`
  replays the same steps through the model without and with the adapter and reports both side by
  side, each under its own name.
Adapters the converter cannot write (routed experts adapted, DoRA) are refused with the reason.

Run: native/.venv/bin/python -m pytest native/lora
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

import torch  # noqa: E402
from datasets import load_dataset  # noqa: E402
from peft import LoraConfig, PeftModel  # noqa: E402
from transformers import AutoModelForCausalLM, AutoTokenizer  # noqa: E402
from trl import SFTConfig, SFTTrainer  # noqa: E402

from qwen35.gguf_convert import ConversionError, convert_gguf  # noqa: E402
from qwen35.lora_convert import convert_lora  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
NANO = REPO / "resources" / "models" / "worldloom-nano"
PYTHON = REPO / "native" / ".venv" / "bin" / "python"
GREEDY = REPO / "native" / "qwen35" / "gguf_greedy.mjs"
TOKENS = 24
# Every projection llama.cpp's qwen35moe adapts, both attention kinds: the linear attention's
# value-head permutation is carried into the adapter (rows of B, columns of A).
TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "in_proj_qkv", "in_proj_z", "in_proj_b", "in_proj_a", "out_proj", "gate_proj", "up_proj", "down_proj"]

CREATED = "2025-06-01T10:00:00.000Z"
SYSTEM = "You simulate a Linux terminal. Reply with exactly what the shell prints."
STEPS = [
    ("ls", "notes.txt  src  build.log"),
    ("cat notes.txt", "remember: the release is on friday"),
    ("ls src", "main.py  util.py  worldloom.py"),
    ("wc -l src/main.py", "42 src/main.py"),
    ("pwd", "/home/user/project"),
    ("whoami", "user"),
]


def trajectory():
    def node(nid, parent, depth, action="", observation=""):
        return {
            "id": nid, "trajectoryId": "t1", "parentId": parent, "editedFromId": None, "depth": depth, "action": action,
            "observation": observation, "reasoning": None, "origin": "real" if parent else "imported", "provenance": {},
            "curation": {"starred": False, "rating": None, "tags": [], "note": ""}, "metrics": None, "createdAt": CREATED,
        }

    nodes = [node("root", None, 0, observation="user@box:~/project$")]
    for i, (action, observation) in enumerate(STEPS):
        nodes.append(node(f"s{i}", nodes[-1]["id"], i + 1, action, observation))
    record = {"id": "t1", "title": "terminal session", "domain": "terminal", "systemPrompt": SYSTEM, "worldSpec": None, "createdAt": CREATED, "sourceKey": None}
    return {"format": "worldloom.trajectory", "version": 1, "trajectory": record, "nodes": nodes}


def worldloom(*args, timeout=300):
    result = subprocess.run(["npx", "--no-install", "worldloom", *args], cwd=REPO, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"worldloom {' '.join(args)} failed:\n{result.stderr[-3000:]}"
    return json.loads(result.stdout.strip().splitlines()[-1])


def greedy_gguf(gguf_file, prompt, tmp, lora=None):
    ids = tmp / "prompt.json"
    ids.write_text(json.dumps([prompt]))
    args = ["node", str(GREEDY), "--gguf", str(gguf_file), "--prompt-ids", str(ids), "--tokens", str(TOKENS)]
    result = subprocess.run(args + (["--lora", str(lora)] if lora else []), capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["cases"][0]["engine"]


def greedy_hf(model, prompt):
    with torch.inference_mode():
        ids = torch.tensor([prompt])
        out = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False, max_new_tokens=TOKENS, pad_token_id=0)
    return out[0, len(prompt):].tolist()


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    root = tmp_path_factory.mktemp("lora")
    hf = root / "nano-hf"
    recovered = subprocess.run([str(PYTHON), "-m", "qwen35.recover", "--onnx", str(NANO), "--out", str(hf)], capture_output=True, text=True, timeout=300)
    assert recovered.returncode == 0, recovered.stderr
    source = root / "trajectories.jsonl"
    source.write_text(json.dumps(trajectory(), separators=(",", ":")) + "\n")
    workspace = str(root / "w.worldloom")
    assert worldloom("import", str(source), "--workspace", workspace)["imported"] == 1
    export = root / "export"
    worldloom("export", "-w", workspace, "-o", str(export), "-f", "prompt-completion")
    data = load_dataset("json", data_files=str(next(export.glob("*.jsonl"))), cache_dir=str(root / "datasets-cache"))["train"]
    assert len(data) == len(STEPS)

    tokenizer = AutoTokenizer.from_pretrained(hf)
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_pretrained(hf, dtype=torch.float32)
    lora = LoraConfig(r=4, lora_alpha=8, lora_dropout=0.0, target_modules=TARGETS, task_type="CAUSAL_LM")
    args = SFTConfig(
        output_dir=str(root / "run"), max_steps=6, per_device_train_batch_size=2, learning_rate=2e-2, report_to=[],
        save_strategy="no", logging_steps=1, use_cpu=True, dataloader_num_workers=0,
    )
    trainer = SFTTrainer(model=model, args=args, train_dataset=data, processing_class=tokenizer, peft_config=lora)
    result = trainer.train()
    assert result.global_step == 6 and torch.isfinite(torch.tensor(result.training_loss))
    adapter = root / "adapter"
    trainer.model.save_pretrained(adapter)

    base_gguf = convert_gguf(hf, root / "nano-f32.gguf", "f32")
    lora_gguf = root / "nano-lora.gguf"
    summary = convert_lora(adapter, lora_gguf, hf)
    prompt = tokenizer.apply_chat_template(data[3]["prompt"], add_generation_prompt=True, tokenize=True, return_dict=False)
    return {"root": root, "hf": hf, "adapter": adapter, "base": base_gguf, "lora": lora_gguf, "summary": summary, "workspace": workspace, "prompt": list(prompt)}


def test_the_adapter_runs_in_llama_cpp_as_in_transformers(trained, tmp_path):
    # Every adapted projection of every layer: 10 layers, 4 (full) or 5 (linear) attention + 3 shared-expert weights.
    assert trained["summary"] == {"tensors": 4 * 7 + 6 * 8, "alpha": 8.0, "rank": 4}
    prompt = trained["prompt"]
    base = AutoModelForCausalLM.from_pretrained(trained["hf"], dtype=torch.float32).eval()
    hf_base = greedy_hf(base, prompt)
    hf_tuned = greedy_hf(PeftModel.from_pretrained(base, trained["adapter"]).eval(), prompt)
    assert hf_tuned != hf_base, "six steps at this rate move the greedy tokens"
    assert greedy_gguf(trained["base"], prompt, tmp_path) == hf_base
    assert greedy_gguf(trained["base"], prompt, tmp_path, lora=trained["lora"]) == hf_tuned


def test_a_replay_with_the_adapter_and_one_without_side_by_side(trained):
    report = worldloom(
        "replay", "-w", trained["workspace"], "--trajectory", "t1", "--max-tokens", "48", "--temperature", "0",
        "--model", str(trained["base"]), "--model", str(trained["base"]), "--adapter", "none", "--adapter", str(trained["lora"]),
        timeout=600,
    )
    # The base GGUF is named after its checkpoint's folder (general.name); with the adapter it says so.
    labels = [m["label"] for m in report["models"]]
    assert labels[0].startswith("nano-hf") and "nano-lora" not in labels[0]
    assert labels[1].startswith("nano-hf + nano-lora")
    assert [m["byDomain"]["terminal"]["steps"] for m in report["models"]] == [len(STEPS), len(STEPS)]
    # The same steps with the same seeds: what differs between the two is the adapter.
    assert report["models"][0]["overall"] != report["models"][1]["overall"]


def test_adapters_llama_cpp_cannot_run_are_refused_with_the_reason(trained, tmp_path):
    config = json.loads((trained["adapter"] / "adapter_config.json").read_text())
    dora = tmp_path / "dora"
    dora.mkdir()
    (dora / "adapter_config.json").write_text(json.dumps({**config, "use_dora": True}))
    with pytest.raises(ConversionError, match="DoRA"):
        convert_lora(dora, tmp_path / "x.gguf", trained["hf"])
    with pytest.raises(ConversionError, match="pass --base"):
        convert_lora_without_base(trained, tmp_path)


def test_an_adapter_over_another_model_is_refused_with_the_cause(trained, tmp_path):
    # The engine tests' tiny checkpoint: the same architecture (qwen35moe), other sizes and layers.
    other = convert_gguf(REPO / "src-main" / "engine" / "onnx" / "fixtures" / "qwen35" / "hf", tmp_path / "tiny.gguf", "f32")
    args = ["replay", "-w", trained["workspace"], "--trajectory", "t1", "--model", str(other), "--adapter", str(trained["lora"])]
    result = subprocess.run(["npx", "--no-install", "worldloom", *args], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode != 0
    assert "nano-lora.gguf does not fit" in result.stderr and "open it over the base model it was trained on" in result.stderr, result.stderr[-2000:]
    folder = subprocess.run(["npx", "--no-install", "worldloom", "replay", "-w", trained["workspace"], "--trajectory", "t1", "--model", str(NANO), "--adapter", str(trained["lora"])],
                            cwd=REPO, capture_output=True, text=True, timeout=300)
    assert folder.returncode != 0 and "is not a .gguf file" in folder.stderr, folder.stderr[-2000:]


def convert_lora_without_base(trained, tmp_path):
    moved = tmp_path / "moved"
    moved.mkdir()
    config = json.loads((trained["adapter"] / "adapter_config.json").read_text())
    (moved / "adapter_config.json").write_text(json.dumps({**config, "base_model_name_or_path": "Qwen/not-here"}))
    (moved / "adapter_model.safetensors").write_bytes((trained["adapter"] / "adapter_model.safetensors").read_bytes())
    return convert_lora(moved, tmp_path / "x.gguf", None)
