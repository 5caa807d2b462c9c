// Every real SWE-agent, mini-swe-agent and ATIF file in ../shared/fixtures/real-world imports
// through the same path `worldloom import` takes (auto detection, the store), each as one
// trajectory with no problem. The importers' own tests check them step by step.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileHead, fileSource } from '../parsing/sources';
import { WorkspaceStore } from '../store/workspace-store';
import { importTrajectories } from '../formats/import-trajectories';
import { realWorld, realWorldNote } from '../testing/real-world';

const REAL = realWorld();
const files = (kind: string) => (existsSync(join(REAL, kind)) ? readdirSync(join(REAL, kind)).map((f) => [kind, f] as const) : []);
const expected: Record<string, string> = { 'harbor-rfc-mini-swe-agent-trajectory.json': 'mini-swe-agent' };
// Harbor's RFC example of a gemini-cli session keeps the agent's words but none of its tool calls:
// there is no action to import, and the report must say so rather than import an empty tree.
const NO_TOOL_CALLS = new Set(['gemini-cli-trajectory.json']);

describe.skipIf(!existsSync(REAL))(`real files of other tools (${realWorldNote()})`, () => {
  const withSteps = [...files('swe-agent'), ...files('atif')].filter(([, name]) => !NO_TOOL_CALLS.has(name));
  it.each(withSteps)('%s/%s imports as one trajectory with no problem', (kind, name) => {
    const path = join(REAL, kind, name);
    const store = WorkspaceStore.create(join(mkdtempSync(join(tmpdir(), 'wl-real-')), 'w.worldloom'));
    const report = importTrajectories(store, fileSource(path), { head: fileHead(path) });
    expect(report).toMatchObject({ format: expected[name] ?? kind, imported: 1, problems: [] });
    const [t] = store.listTrajectories();
    const nodes = store.getNodes(t!.id);
    expect(nodes.length).toBeGreaterThan(1);
    // The world model's reasoning is never filled from an agent's file.
    expect(nodes.every((n) => n.reasoning === null)).toBe(true);
    store.close();
  });

  it.skipIf(!existsSync(join(REAL, 'atif', 'gemini-cli-trajectory.json')))(
    'a gemini-cli session without tool calls is recognised and refused with the reason, importing nothing',
    () => {
      const path = join(REAL, 'atif', 'gemini-cli-trajectory.json');
      const store = WorkspaceStore.create(join(mkdtempSync(join(tmpdir(), 'wl-real-')), 'w.worldloom'));
      const report = importTrajectories(store, fileSource(path), { head: fileHead(path) });
      expect(report).toMatchObject({ format: 'gemini-cli', imported: 0 });
      expect(report.problems.map((p) => p.reason).join('\n')).toMatch(/no tool call/);
      expect(store.listTrajectories()).toHaveLength(0);
      store.close();
    },
  );
});
