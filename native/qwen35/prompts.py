"""Built-in chat prompts for parity runs: world-model style conversations of different lengths,
rendered with the checkpoint's own chat template (so the Qwen3.5 layout is what gets tested)."""

from pathlib import Path

SYSTEM = (
    "You are a world model. Given the agent's action, reply with the environment's observation, "
    "exactly as the real terminal or MCP server would print it."
)

COMMANDS = [
    ("ls -la /srv/app", "total 48\ndrwxr-xr-x 6 app app 4096 Mar  3 10:12 .\n-rw-r--r-- 1 app app  903 Mar  3 10:11 package.json"),
    ("cat package.json", '{\n  "name": "inventory-service",\n  "version": "2.4.1"\n}'),
    ("npm test", "ok 1 - lists items in stock\nnot ok 3 - reserves an item twice\n# fail 1"),
    ("git status", "On branch main\nChanges not staged for commit:\n  modified:   src/routes/items.js"),
    ("df -h /", "Filesystem      Size  Used Avail Use% Mounted on\n/dev/sda1        40G   17G   21G  45% /"),
    ('{"method":"tools/call","params":{"name":"read_file","arguments":{"path":"/srv/app/README.md"}}}',
     '{"content":[{"type":"text","text":"# Inventory service"}],"isError":false}'),
    ("grep -rn reserve src/", "src/routes/items.js:41:router.post('/:id/reserve', async (req, res) => {"),
    ("tail -n 2 /var/log/app/error.log", "ERROR reserve failed: duplicate key value\nINFO  connection restored"),
]


def turn(index: int) -> tuple[str, str]:
    command, output = COMMANDS[index % len(COMMANDS)]
    return f"### Turn {index + 1}\n**Action:**\n```bash\n{command}\n```", f"**Environment Observation:**\n{output}"


def conversation(turns: int, reasoning: bool = True) -> list[dict]:
    """A system prompt, `turns` answered actions (the earlier ones with reasoning), and one open action."""
    messages = [{"role": "system", "content": SYSTEM}]
    for index in range(turns):
        action, observation = turn(index)
        messages.append({"role": "user", "content": action})
        answer = {"role": "assistant", "content": observation}
        if reasoning:
            answer["reasoning_content"] = f"The action is step {index + 1}; the shell prints its usual output."
        messages.append(answer)
    messages.append({"role": "user", "content": turn(turns)[0]})
    return messages


def chat_prompts(hf_dir: Path, long_history_tokens: int = 1500) -> list[list[int]]:
    """Three prompts: a first action, a short history, and a history of at least `long_history_tokens`."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(hf_dir)

    def render(messages, **kwargs) -> list[int]:
        text = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True, **kwargs)
        return tokenizer.encode(text, add_special_tokens=False)

    prompts = [render(conversation(0)), render(conversation(3), enable_thinking=False)]
    turns = 4
    while len(render(conversation(turns))) < long_history_tokens:
        turns += 4
    prompts.append(render(conversation(turns)))
    return prompts
