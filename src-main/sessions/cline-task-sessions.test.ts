// A Cline task found on disk by the session search: listed with its working folder and its calls counted without importing it.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSessions } from './find-sessions';

const env = '<environment_details>\n# Current Working Directory (/home/ada/shop) Files\nREADME.md\n</environment_details>';
const task = [
  { role: 'user', content: [{ type: 'text', text: '<task>\nlist the files\n</task>' }, { type: 'text', text: env }] },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'list_files', input: { path: '.' } }] },
  { role: 'user', content: [{ type: 'text', text: "[list_files for '.'] Result:\nREADME.md" }, { type: 'text', text: env }] },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'call_2', name: 'execute_command', input: { command: 'wc -l "README.md"' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_2', content: '3 README.md' }] },
];

describe('Cline / Roo Code / Kilo Code tasks on disk', () => {
  it('a task is listed with its working folder and its calls counted (a result header or a tool_result each)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wl-cline-home-'));
    const dir = join(home, '.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1769000000000');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'api_conversation_history.json'), JSON.stringify(task));
    const found = await findSessions({ home, platform: 'linux', env: {} });
    const cline = found.sessions.filter((s) => s.format === 'cline-task');
    expect(cline).toHaveLength(1);
    expect(cline[0]).toMatchObject({ agent: 'Cline / Roo Code / Kilo Code', project: '/home/ada/shop', toolCalls: 2 });
  });
});
