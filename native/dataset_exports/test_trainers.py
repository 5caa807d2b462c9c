"""Worldloom's dataset exports in the real consumers: Hugging Face `datasets` loads every format
that claims it as the dataset card says, and TRL trains on them unchanged, with the loss on what
the sample teaches.

A workspace is built with the real CLI (`npx worldloom import` of a Worldloom JSONL file holding
terminal trajectories with reasoning, the agent's own thoughts, and sibling samples rated against
each other), exported with `npx worldloom export`, then loaded and trained: two SFTTrainer steps on
world-model and agent prompt/completion data and two DPOTrainer steps on preference pairs, on the
tiny Qwen3.5-MoE checkpoint the engine tests use. The tokens that carry the loss are checked to be
exactly the step's observation (world model) or its tool call (agent), nothing of the history.
"""

import atexit
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

# Everything is local: no hub look-ups (CI reaches no hub), and no telemetry.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
# Never the shared datasets cache (~/.cache/huggingface/datasets): it keys a JSON load by the
# files' paths, and an export written where an earlier run's export was (pytest's numbered tmp
# folders come back after /tmp is cleared) was read back stale, 51 rows for 8. This run's own
# folder covers what `datasets` derives at import; each test then gets its own (see below).
os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="worldloom-datasets-cache-")
atexit.register(shutil.rmtree, os.environ["HF_DATASETS_CACHE"], ignore_errors=True)

import datasets  # noqa: E402
import torch  # noqa: E402
from datasets import load_dataset  # noqa: E402
from transformers import AutoModelForCausalLM, AutoTokenizer  # noqa: E402
from trl import DPOConfig, DPOTrainer, SFTConfig, SFTTrainer  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CHECKPOINT = REPO / "src-main" / "engine" / "onnx" / "fixtures" / "qwen35" / "hf"

# A Qwen3-style template that also renders tools, tool calls and tool results (the fixture's own
# template has no tool turns). Tool-call arguments arrive as a JSON string and are written as is.
TOOL_TEMPLATE = """
{%- set state = namespace(last_user=-1) -%}
{%- for message in messages -%}{%- if message.role == 'user' -%}{%- set state.last_user = loop.index0 -%}{%- endif -%}{%- endfor -%}
{%- for message in messages -%}
  {%- set body = message.content if message.content is string else '' -%}
  {%- if message.role == 'system' -%}
    {{- '<|im_start|>system\\n' + body -}}
    {%- if tools -%}{{- '\\n\\n# Tools\\n<tools>' -}}{%- for tool in tools -%}{{- '\\n' + (tool | tojson) -}}{%- endfor -%}{{- '\\n</tools>' -}}{%- endif -%}
    {{- '<|im_end|>\\n' -}}
  {%- elif message.role == 'user' -%}
    {{- '<|im_start|>user\\n' + body + '<|im_end|>\\n' -}}
  {%- elif message.role == 'assistant' -%}
    {%- set thought = message.reasoning_content if message.reasoning_content is string else '' -%}
    {{- '<|im_start|>assistant\\n' -}}
    {%- if loop.index0 > state.last_user -%}{{- '<think>\\n' + (thought | trim) + '\\n</think>\\n\\n' -}}{%- endif -%}
    {{- body | trim -}}
    {%- if message.tool_calls -%}
      {%- for call in message.tool_calls -%}
        {{- '<tool_call>\\n{"name": "' + call.function.name + '", "arguments": ' + call.function.arguments + '}\\n</tool_call>' -}}
      {%- endfor -%}
    {%- endif -%}
    {{- '<|im_end|>\\n' -}}
  {%- elif message.role == 'tool' -%}
    {{- '<|im_start|>user\\n<tool_response>\\n' + body + '\\n</tool_response><|im_end|>\\n' -}}
  {%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n<think>\\n' -}}{%- endif -%}
"""

CREATED = "2025-06-01T10:00:00.000Z"
SYSTEM = "You simulate a Linux terminal. Reply with exactly what the shell prints."


def node(tid, nid, parent, depth, action="", observation="", reasoning=None, agent_reasoning=None, rating=None, starred=False):
    record = {
        "id": nid,
        "trajectoryId": tid,
        "parentId": parent,
        "editedFromId": None,
        "depth": depth,
        "action": action,
        "observation": observation,
        "reasoning": reasoning,
        "origin": "real" if parent else "imported",
        "provenance": {},
        "curation": {"starred": starred, "rating": rating, "tags": [], "note": ""},
        "metrics": None,
        "createdAt": CREATED,
    }
    if agent_reasoning:
        record["agentReasoning"] = agent_reasoning
    return record


def trajectory(tid, steps, siblings=()):
    """A one-branch terminal trajectory of (action, observation, reasoning, agent reasoning) steps,
    plus sibling samples (action, observation, rating, starred) of its first step's action."""
    nodes = [node(tid, f"{tid}-root", None, 0, observation="user@box:~$")]
    parent = f"{tid}-root"
    for i, (action, observation, reasoning, thought) in enumerate(steps):
        nid = f"{tid}-s{i}"
        first = i == 0 and siblings
        nodes.append(node(tid, nid, parent, i + 1, action, observation, reasoning, thought, rating=5 if first else None, starred=bool(first)))
        parent = nid
    for j, (action, observation, rating, starred) in enumerate(siblings):
        nodes.append(node(tid, f"{tid}-alt{j}", f"{tid}-root", 1, action, observation, rating=rating, starred=starred))
    record = {"id": tid, "title": f"terminal {tid}", "domain": "terminal", "systemPrompt": SYSTEM, "worldSpec": None, "createdAt": CREATED, "sourceKey": None}
    return {"format": "worldloom.trajectory", "version": 1, "trajectory": record, "nodes": nodes}


TRAJECTORIES = [
    trajectory(
        "t1",
        [
            ("```bash\nls\n```", "notes.txt  src", "A home directory with a note and a source folder.", "Look around first."),
            ("cat notes.txt", "buy milk", "The note is a short shopping list.", "The note may say what to do."),
            ("ls src", "main.py  util.py", None, None),
        ],
        siblings=[("ls", "notes.txt", 2, False)],
    ),
    trajectory(
        "t2",
        [
            ("pwd", "/home/user", "The prompt shows the home directory.", "Where am I?"),
            ("whoami", "user", "The prompt names the user.", None),
        ],
        siblings=[("pwd", "/root", 1, False), ("pwd", "/home", None, False)],
    ),
]


def worldloom(*args):
    result = subprocess.run(["npx", "--no-install", "worldloom", *args], cwd=REPO, capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, f"worldloom {' '.join(args)} failed:\n{result.stderr}"
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.fixture(autouse=True)
def own_datasets_cache(tmp_path, monkeypatch):
    """Each test loads into a cache of its own, so nothing an earlier test or run cached is read back."""
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "datasets-cache")


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    root = tmp_path_factory.mktemp("worldloom")
    source = root / "trajectories.jsonl"
    source.write_text("".join(json.dumps(t, separators=(",", ":")) + "\n" for t in TRAJECTORIES))
    workspace = str(root / "w.worldloom")
    assert worldloom("import", str(source), "--workspace", workspace)["imported"] == 2
    runs = {
        "messages": ["-f", "messages", "--reasoning"],
        "world-model": ["-f", "prompt-completion", "--reasoning"],
        "agent": ["-f", "prompt-completion", "--builder", "agent", "--reasoning"],
        "preference": ["-f", "preference", "--builder", "preference", "--reasoning"],
        "parquet": ["-f", "parquet", "--reasoning", "--per", "step"],
    }
    out = {}
    for name, args in runs.items():
        folder = root / name
        summary = worldloom("export", "-w", workspace, "-o", str(folder), *args)
        assert summary["tokenizer"]["exact"], "the card's token counts come from the embedded model's tokenizer"
        out[name] = folder
    return out


@pytest.fixture(scope="module")
def tokenizer():
    return AutoTokenizer.from_pretrained(CHECKPOINT)


def card_data_files(folder):
    """The split → file mapping the dataset card's YAML configs name, as `datasets` reads it."""
    readme = (folder / "README.md").read_text()
    front = readme.split("---\n")[1]
    files = {}
    for block in front.split("- split: ")[1:]:
        split = json.loads(block.splitlines()[0])
        path = json.loads(block.splitlines()[1].split("path: ")[1])
        files[split] = str(folder / path)
    return files


def load_as_card_says(folder):
    return load_dataset("json", data_files=card_data_files(folder))["train"]


def loss_text(trainer, tokenizer, row):
    """What the trainer puts the loss on for one row: the label tokens its collator keeps, decoded."""
    batch = trainer.data_collator([trainer.train_dataset[row]])
    labels = batch["labels"][0]
    ids = batch["input_ids"][0]
    kept = ids[labels != -100]
    # The mask is one contiguous run: the completion, nothing of the prompt.
    positions = (labels != -100).nonzero().flatten().tolist()
    assert positions == list(range(positions[0], positions[-1] + 1))
    return tokenizer.decode(kept.tolist())


def two_steps(path):
    """What every trainer here runs with: two small steps on the CPU, nothing saved or reported."""
    return dict(
        output_dir=str(path),
        max_steps=2,
        per_device_train_batch_size=2,
        learning_rate=1e-3,
        report_to=[],
        save_strategy="no",
        logging_steps=1,
        use_cpu=True,
        dataloader_num_workers=0,
    )


def sft_config(path, **extra):
    return SFTConfig(**two_steps(path), **extra)


def model():
    torch.manual_seed(0)
    return AutoModelForCausalLM.from_pretrained(CHECKPOINT, dtype=torch.float32)


def test_every_format_loads_as_its_card_says(exports, tokenizer):
    messages = load_as_card_says(exports["messages"])
    assert messages.column_names == ["messages"]
    # A world-model step sample per step: 3 + 1 sibling + 2 + 2 siblings.
    assert len(messages) == 8
    rendered = tokenizer.apply_chat_template(messages[0]["messages"], tokenize=False)
    assert rendered.startswith("<|im_start|>system\n")
    parquet = load_dataset(str(exports["parquet"]))["train"]
    turns = lambda row: [(m["role"], m["content"], m.get("reasoning_content") or "") for m in row["messages"]]  # noqa: E731
    # Parquet gives every message the reasoning column (one struct type); JSON gives it to assistant turns.
    assert len(parquet) == 8 and turns(parquet[0]) == turns(messages[0])
    pairs = load_as_card_says(exports["preference"])
    assert sorted(pairs.column_names) == ["chosen", "prompt", "rejected"]
    agent = load_as_card_says(exports["agent"])
    assert sorted(agent.column_names) == ["completion", "prompt", "tools"]
    assert json.loads(agent[0]["tools"])[0]["function"]["name"] == "execute_command"


def test_sft_on_world_model_steps_trains_the_observation_only(exports, tokenizer, tmp_path):
    data = load_as_card_says(exports["world-model"])
    trainer = SFTTrainer(model=model(), args=sft_config(tmp_path), train_dataset=data, processing_class=tokenizer)
    for row in range(len(data)):
        completion = data[row]["completion"][0]
        reasoning = completion["reasoning_content"].strip()
        # After the prompt's open think block: the reasoning, then the observation, then the end of the turn.
        assert loss_text(trainer, tokenizer, row) == f"{reasoning}\n</think>\n\n{completion['content']}<|im_end|>\n"
    third = [r for r in range(len(data)) if data[r]["prompt"][-1]["content"].startswith("### Turn 3")][0]
    # The history's observations are context: the third step's prompt holds them, its loss does not.
    assert "notes.txt  src" in json.dumps(data[third]["prompt"]) and "notes.txt  src" not in loss_text(trainer, tokenizer, third)
    assert loss_text(trainer, tokenizer, third) == "\n</think>\n\n**Environment Observation:**\nmain.py  util.py<|im_end|>\n"
    result = trainer.train()
    assert result.global_step == 2 and torch.isfinite(torch.tensor(result.training_loss))


def test_sft_on_agent_steps_trains_the_tool_call_only(exports, tmp_path):
    data = load_as_card_says(exports["agent"])
    tokenizer = AutoTokenizer.from_pretrained(CHECKPOINT)
    tokenizer.chat_template = TOOL_TEMPLATE
    trainer = SFTTrainer(model=model(), args=sft_config(tmp_path), train_dataset=data, processing_class=tokenizer)
    calls = []
    for row in range(len(data)):
        completion = data[row]["completion"][0]
        (call,) = completion["tool_calls"]
        arguments = call["function"]["arguments"]
        calls.append((json.loads(arguments)["command"], completion["reasoning_content"]))
        thought = completion["reasoning_content"].strip()
        expected = f"{thought}\n</think>\n\n<tool_call>\n{{\"name\": \"execute_command\", \"arguments\": {arguments}}}\n</tool_call><|im_end|>\n"
        assert loss_text(trainer, tokenizer, row) == expected
    # The fenced imported action is the same bare command as a recorded one, and the agent's own
    # thought is its reasoning; the world model's reasoning is nowhere in agent data.
    assert sorted(calls) == sorted(
        [("ls", "Look around first."), ("ls", ""), ("cat notes.txt", "The note may say what to do."), ("ls src", ""), ("pwd", "Where am I?"), ("pwd", ""), ("pwd", ""), ("whoami", "")]
    )
    assert "A home directory" not in json.dumps(data.to_list())
    result = trainer.train()
    assert result.global_step == 2 and torch.isfinite(torch.tensor(result.training_loss))


def test_dpo_on_sibling_pairs(exports, tokenizer, tmp_path):
    data = load_as_card_says(exports["preference"])
    pairs = {(row["chosen"][0]["content"], row["rejected"][0]["content"]) for row in data}
    obs = "**Environment Observation:**\n"
    # Rated 5 and starred beats rated 2; rated 1 loses to it; an unrated, unstarred sibling loses to the starred one.
    assert pairs == {
        (obs + "notes.txt  src", obs + "notes.txt"),
        (obs + "/home/user", obs + "/root"),
        (obs + "/home/user", obs + "/home"),
    }
    config = DPOConfig(**two_steps(tmp_path))
    trainer = DPOTrainer(model=model(), args=config, train_dataset=data, processing_class=tokenizer)
    # DPO compares the two answers only: each side's tokens are its observation (and its reasoning), after the same prompt.
    for row in trainer.train_dataset:
        for side in ("chosen", "rejected"):
            (answer,) = row[side]
            thought = (answer["reasoning_content"] or "").strip()
            assert tokenizer.decode(row[f"{side}_ids"]) == f"{thought}\n</think>\n\n{answer['content']}<|im_end|>\n"
        assert tokenizer.decode(row["prompt_ids"]).endswith(row["prompt"][-1]["content"] + "<|im_end|>\n<|im_start|>assistant\n<think>\n")
    result = trainer.train()
    assert result.global_step == 2 and torch.isfinite(torch.tensor(result.training_loss))
