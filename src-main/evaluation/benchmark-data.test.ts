import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GenerateRequest, WorldModelEngine } from '../common/engine';
import { loadBenchmarkDir, caseMessages } from './benchmark-data';
import { judge } from './judge';

const record = (turnIdx: number, currentPrompt: string) => ({
  task: 'terminal',
  id: 't1',
  prompt: ['## Turn 1\n\n**Action:**\nls', '## Turn 2\n\n**Action:**\ncat a.txt'],
  response: ['**Environment Observation:**\na.txt', '**Environment Observation:**\nhello'],
  current_prompt: currentPrompt,
  system_str: 'You simulate a bash shell.',
  turn_idx: turnIdx,
});

function benchDir(lines: (string | Buffer)[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'wl-bench-'));
  writeFileSync(join(dir, 'terminal_test.jsonl'), Buffer.concat(lines.map((l) => Buffer.concat([Buffer.from(l), Buffer.from('\n')]))));
  return dir;
}

describe('an AgentWorldBench directory', () => {
  it('reports unreadable lines by file and line, and keeps the rest', () => {
    const bytes = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]);
    const { cases, problems } = loadBenchmarkDir(benchDir([JSON.stringify(record(1, '')), '', '{"task": ', bytes, JSON.stringify(record(2, ''))]));
    expect(cases.map((s) => s.key)).toEqual(['terminal/t1/1', 'terminal/t1/2']);
    expect(problems).toEqual([
      { file: 'terminal_test.jsonl', line: 3, reason: expect.stringMatching(/^not valid JSON \(/) },
      { file: 'terminal_test.jsonl', line: 4, reason: 'invalid UTF-8 bytes' },
    ]);
  });

  it("gives the world model and the judge the same action: the turn's entry in `prompt`", async () => {
    const { cases } = loadBenchmarkDir(benchDir([JSON.stringify(record(2, 'a current_prompt that disagrees'))]));
    const benchmarkCase = cases[0]!;
    expect(caseMessages(benchmarkCase)).toEqual([
      { role: 'system', content: 'You simulate a bash shell.' },
      { role: 'user', content: '## Turn 1\n\n**Action:**\nls' },
      { role: 'assistant', content: '**Environment Observation:**\na.txt' },
      { role: 'user', content: '## Turn 2\n\n**Action:**\ncat a.txt' },
    ]);
    const asked: GenerateRequest[] = [];
    const judgeEngine = {
      generate: async (requests: GenerateRequest[]) => {
        asked.push(...requests);
        return [{ id: requests[0]!.id, text: 'not an answer', finishReason: 'stop' }];
      },
    } as unknown as WorldModelEngine;
    const judgement = await judge(judgeEngine, 'action: {{action}}', benchmarkCase, 'hello');
    expect(judgement).toMatchObject({ verdict: null, attempts: 3 });
    expect(asked.map((r) => r.messages[0]!.content)).toEqual(Array(3).fill('action: ## Turn 2\n\n**Action:**\ncat a.txt'));
  });
});
