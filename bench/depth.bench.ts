// Simulating at a node 50 steps deep costs the same in a 100,000-node workspace as in a
// 100-node one: building the prompt reads only the path to the node, not the tree. Both
// workspaces hold the same 50-step path (so the model sees the same prompt and writes the
// same tokens); only the branches around it differ. Runs through the dispatcher, as a door
// would, on the tiny-chat test model with a few new tokens, rounds alternating.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dispatch } from '../src-main/service/dispatch';
import { Studio } from '../src-main/service/studio';
import { WorkspaceStore } from '../src-main/store/workspace-store';
import { newId } from '../src-main/common/trajectory/ids';
import { EMPTY_CURATION, type NodeRecord } from '../src-main/common/trajectory/model';
import { median, type BenchSuite } from './bench';

const MODEL = fileURLToPath(new URL('../src-main/engine/onnx/fixtures/qwen35/tiny-chat', import.meta.url));
const RESOURCES = fileURLToPath(new URL('../resources', import.meta.url));
const DEPTH = 50;
const ROUNDS = 15;

/** A trajectory of `size` nodes: the same 50-step path, then branches off random earlier nodes. */
function workspaceOf(file: string, size: number): string {
  const store = WorkspaceStore.create(file);
  const createdAt = new Date().toISOString();
  const trajectory = { id: newId(), title: `${size} nodes`, domain: 'terminal' as const, systemPrompt: '', worldSpec: null, sourceKey: null, createdAt };
  const root: NodeRecord = {
    id: newId(), trajectoryId: trajectory.id, parentId: null, editedFromId: null, depth: 0, action: '', observation: '$ ',
    reasoning: null, origin: 'manual', provenance: {}, curation: EMPTY_CURATION, metrics: null, createdAt,
  };
  const all: NodeRecord[] = [root];
  const node = (parent: NodeRecord, action: string, observation: string): NodeRecord => ({
    id: newId(), trajectoryId: trajectory.id, parentId: parent.id, editedFromId: null, depth: parent.depth + 1,
    action, observation, reasoning: null, origin: 'simulated', provenance: {}, curation: EMPTY_CURATION, metrics: null, createdAt,
  });
  for (let d = 1; d <= DEPTH; d++) all.push(node(all[d - 1]!, `cd d${d}`, `ok ${d}`));
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  while (all.length < size) all.push(node(all[Math.floor(next() * all.length)]!, `ls -la /var/log/${all.length}`, `total ${all.length}\n-rw-r--r-- 1 root root syslog`));
  store.transaction(() => store.insertBundle({ trajectory, nodes: all }));
  const deep = all[DEPTH]!.id;
  store.close();
  return deep;
}

export const depthSuite: BenchSuite = {
  name: 'depth',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'wl-depth-bench-'));
    process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
    const small = join(dir, 'small.worldloom');
    const large = join(dir, 'large.worldloom');
    const at = { [small]: workspaceOf(small, 100), [large]: workspaceOf(large, 100_000) };
    const studio = new Studio({ door: 'host', resourcesDir: RESOURCES });
    try {
      await studio.models.load({ kind: 'onnx', path: MODEL });
      const times: Record<string, number[]> = { [small]: [], [large]: [] };
      const tokens: Record<string, string[]> = { [small]: [], [large]: [] };
      for (let round = 0; round <= ROUNDS; round++) {
        for (const file of round % 2 === 0 ? [small, large] : [large, small]) {
          studio.openWorkspace(file, 'open');
          const started = performance.now();
          const result = await dispatch(studio, 'simulate.run', {
            jobId: `depth-${round}`,
            nodeId: at[file],
            action: 'cat notes.txt',
            samples: 1,
            sampling: { maxTokens: 4, seed: 1, temperature: 1, thinking: false },
          });
          const ms = performance.now() - started;
          if (!result.ok) throw new Error(result.error.message);
          const { nodes, incomplete } = result.value as { nodes: NodeRecord[]; incomplete: unknown[] };
          tokens[file]!.push(nodes[0]?.observation ?? JSON.stringify(incomplete));
          // The first round warms the engine and SQLite's page cache for both; it is not counted.
          if (round > 0) times[file]!.push(ms);
        }
      }
      const same = new Set([...tokens[small]!, ...tokens[large]!]).size === 1;
      const smallMs = median(times[small]!);
      const largeMs = median(times[large]!);
      return [
        {
          name: `simulate 50 deep: 100,000-node vs 100-node workspace`,
          value: largeMs,
          unit: 'ms',
          // Different tokens would mean the two runs did different work: not a comparison.
          ratio: same ? largeMs / smallMs : Infinity,
          goal: 1.2,
          note: `median of ${ROUNDS} alternating rounds; 100-node ${smallMs.toFixed(1)} ms; ${same ? 'same tokens' : 'TOKENS DIFFER'}`,
        },
      ];
    } finally {
      await studio.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
