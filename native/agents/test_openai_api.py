"""`worldloom serve --openai` driven by the `openai` Python package, the way the public
AgentWorldBench evaluation script's `infer` step drives a world model: one chat completion
per benchmark line, the line's system prompt, the real turns before `turn_idx` as
user/assistant pairs, then the turn's prompt; `choices[0].message.content` is the prediction.

Set AWB_EVAL_SCRIPT to a copy of that script (eval/eval.py of QwenLM/Qwen-AgentWorld, beside
its lwm_eval_utils) to also run the script itself against the server.
"""

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import openai
import pytest
from openai import OpenAI

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "src-main" / "evaluation" / "fixtures" / "bench"
KEY = "pytest-key"
API_LINE = re.compile(r"OpenAI-compatible API at (\S+) \(key: ([^)]+)\)")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    workspace = tmp_path_factory.mktemp("serve") / "api.worldloom"
    process = subprocess.Popen(
        [
            "node", str(ROOT / "src-main" / "cli" / "worldloom.mjs"), "serve",
            "--workspace", str(workspace), "--openai", "--openai-key", KEY, "--record-to", str(workspace),
        ],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    base_url = None
    seen = []
    for line in process.stdout:
        seen.append(line)
        match = API_LINE.search(line)
        if match:
            base_url = match.group(1)
            assert match.group(2) == KEY
            break
    if base_url is None:
        process.kill()
        pytest.fail("serve --openai did not print its API line:\n" + "".join(seen))
    yield {"base_url": base_url, "workspace": workspace}
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="module")
def client(server):
    return OpenAI(base_url=server["base_url"], api_key=KEY)


def benchmark_lines():
    jobs = []
    for path in sorted(BENCH.glob("*_test.jsonl")):
        jobs.extend(json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return jobs


def infer_messages(job):
    """The chat the public script's infer step sends for one benchmark line."""
    turn = job["turn_idx"] - 1
    messages = [{"role": "system", "content": job["system_str"]}] if job.get("system_str") else []
    for prompt, response in zip(job["prompt"][:turn], job["response"][:turn]):
        messages += [{"role": "user", "content": prompt}, {"role": "assistant", "content": response}]
    messages.append({"role": "user", "content": job["prompt"][turn]})
    return messages


def test_models_lists_the_loaded_world_model(client):
    models = client.models.list().data
    assert len(models) == 1
    assert models[0].id


def test_inference_as_the_public_script_runs_it(client, server):
    model = client.models.list().data[0].id
    jobs = benchmark_lines()
    for job in jobs:
        response = client.chat.completions.create(model=model, messages=infer_messages(job), max_tokens=256, temperature=0.6)
        job["gen"] = response.choices[0].message.content or ""
    assert all(job["gen"].strip() for job in jobs), [job["gen"] for job in jobs]
    assert not any("<think>" in job["gen"] or "</think>" in job["gen"] for job in jobs)
    # Every request was recorded: each conversation a trajectory, each answer an agent node.
    db = sqlite3.connect(server["workspace"])
    answers = db.execute("SELECT COUNT(*) FROM nodes WHERE origin = 'agent'").fetchone()[0]
    db.close()
    assert answers >= len(jobs)


def test_streaming_gives_the_same_answer_piece_by_piece(client):
    model = client.models.list().data[0].id
    messages = infer_messages(benchmark_lines()[0])
    whole = client.chat.completions.create(model=model, messages=messages, max_tokens=128, temperature=0.8, seed=11)
    pieces, reasoning, finish = [], [], None
    for chunk in client.chat.completions.create(model=model, messages=messages, max_tokens=128, temperature=0.8, seed=11, stream=True):
        for choice in chunk.choices:
            pieces.append(choice.delta.content or "")
            reasoning.append((choice.delta.model_extra or {}).get("reasoning_content") or "")
            finish = choice.finish_reason or finish
    assert "".join(pieces) == whole.choices[0].message.content
    assert "<think>" not in "".join(pieces)
    assert finish in ("stop", "length")


def test_bad_requests_are_refused_and_the_server_keeps_serving(client, server):
    model = client.models.list().data[0].id
    with pytest.raises(openai.BadRequestError) as bad:
        client.chat.completions.create(model=model, messages=[], max_tokens=8)
    assert "messages" in str(bad.value)
    with pytest.raises(openai.BadRequestError):
        client.chat.completions.create(model=model, messages=[{"role": "user", "content": "hi"}], max_tokens=10_000_000)
    with pytest.raises(openai.AuthenticationError):
        OpenAI(base_url=server["base_url"], api_key="wrong", max_retries=0).models.list()
    ok = client.chat.completions.create(model=model, messages=[{"role": "user", "content": "### Turn 1\n**Action:**\nls"}], max_tokens=16)
    assert ok.choices[0].message.role == "assistant"


@pytest.mark.skipif(not os.environ.get("AWB_EVAL_SCRIPT"), reason="AWB_EVAL_SCRIPT does not name a copy of the public eval.py")
def test_the_public_script_infers_against_the_api(client, server, tmp_path):
    model = client.models.list().data[0].id
    run = subprocess.run(
        [
            sys.executable, os.environ["AWB_EVAL_SCRIPT"], "infer", "--data-dir", str(BENCH),
            "--model-base-url", server["base_url"], "--model-name", model, "--model-api-key", KEY,
            "--output-dir", str(tmp_path), "--max-tokens", "256",
        ],
        capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stderr
    predictions = [json.loads(line) for line in (tmp_path / "predictions.jsonl").read_text().splitlines()]
    assert len(predictions) == len(benchmark_lines())
    assert all(p["gen"].strip() for p in predictions), run.stderr
