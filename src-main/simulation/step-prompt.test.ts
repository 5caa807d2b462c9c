// The prompt a step is simulated from, for a trajectory imported from AgentWorldBench: the
// benchmark's own turns are sent as written (GUI task and screen included), resampling an
// imported step sends its imported prompt, and a new action in a GUI domain gets the
// benchmark's blocks.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentWorldBenchImporter } from '../formats/agentworldbench/import';
import { runImporter } from '../testing/importer-fixtures';
import { WorkspaceStore } from '../store/workspace-store';
import type { NodeRecord } from '../common/trajectory/model';
import { promptForStep } from './step-prompt';

const TEMPLATES = { builtinDir: fileURLToPath(new URL('../../resources/prompts', import.meta.url)) };
const PROMPTS = [
  '### Turn 1\n**Task Instruction:**\nDo I have events on October 28?\n\n**Current State:**\n[0] launcher\n\n**Action:**\nopen_app("Calendar")',
  '### Turn 2\n**Current State:**\n[0] month view\n\n**Action:**\ntap("28")',
];
const RESPONSES = ['**Environment Observation:**\n[0] month view', '**Environment Observation:**\n[0] day view: no events'];
const LINE = { task: 'android', id: 68, prompt: PROMPTS, response: RESPONSES, current_prompt: PROMPTS[1], system_str: 'You are an Android world model.', turn_idx: 2, total_turns: 2 };

let store: WorkspaceStore;
let steps: NodeRecord[];
beforeAll(() => {
  store = WorkspaceStore.create(join(mkdtempSync(join(tmpdir(), 'wl-prompt-')), 'w.worldloom'));
  const { bundles } = runImporter(agentWorldBenchImporter, 'android_test.jsonl', JSON.stringify(LINE));
  store.transaction(() => store.insertBundle(bundles[0]!));
  steps = [...bundles[0]!.nodes].sort((a, b) => a.depth - b.depth);
});
afterAll(() => store.close());

describe('the prompt of a step in an imported GUI trajectory', () => {
  it('resampling an imported step sends the benchmark’s own turns and prompt, unchanged', async () => {
    const prompt = await promptForStep(store, TEMPLATES, steps[1]!.id, 'tap("28")');
    expect(prompt.source).toBe('imported');
    expect(prompt.messages).toEqual([
      { role: 'system', content: 'You are an Android world model.' },
      { role: 'user', content: PROMPTS[0] },
      { role: 'assistant', content: RESPONSES[0] },
      { role: 'user', content: PROMPTS[1] },
    ]);
  });

  it('a new action gets the screen it is taken on, and the first turn the task', async () => {
    const later = await promptForStep(store, TEMPLATES, steps[2]!.id, 'go_back()');
    expect(later.messages.at(-1)!.content).toBe('### Turn 3\n**Current State:**\n[0] day view: no events\n\n**Action:**\ngo_back()');
    const first = await promptForStep(store, TEMPLATES, steps[0]!.id, 'open_app("Clock")');
    // The imported root holds no screen: the first prompt's is the initial one.
    expect(first.messages.at(-1)!.content).toBe('### Turn 1\n**Task Instruction:**\nDo I have events on October 28?\n\n**Current State:**\n[0] launcher\n\n**Action:**\nopen_app("Clock")');
  });
});
