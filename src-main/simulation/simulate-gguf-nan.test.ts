// A simulated step on a GGUF whose weights give NaN logits (the tiny checkpoint with a poisoned
// final norm, converted by the project's converter, run by real llama.cpp) fails with the
// engine's reason and stores no node: an incomplete or broken sample is never kept.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GgufEngine } from '../engine/gguf/gguf-engine';
import { WorkspaceStore } from '../store/workspace-store';
import { ggufFixtureUnavailable, poisonedTinyGguf } from '../testing/gguf-fixtures';
import { FALLBACK_SAMPLING } from './generation-parameters';
import { simulateStep } from './simulate-step';

const RESOURCES = fileURLToPath(new URL('../../resources', import.meta.url));

describe.skipIf(ggufFixtureUnavailable())('simulating on a GGUF that gives NaN logits', () => {
  it("fails with the engine's reason and stores no node", async () => {
    const store = WorkspaceStore.create(join(mkdtempSync(join(tmpdir(), 'wl-gguf-nan-store-')), 'w.worldloom'));
    // One thread: llama.cpp's threads wait on each other by spinning, which a loaded test machine punishes.
    const engine = await GgufEngine.load(poisonedTinyGguf(Number.NaN), { device: 'cpu', sequences: 2, threads: 1 });
    try {
      const { nodes } = store.createTrajectory({ title: 't', domain: 'terminal', systemPrompt: '', initialState: 'agent@box:~$ ' });
      const step = simulateStep(store, engine, { builtinDir: join(RESOURCES, 'prompts') }, {
        nodeId: nodes[0]!.id, action: 'ls', samples: 2, sampling: { ...FALLBACK_SAMPLING, maxTokens: 8, seed: 1 },
      }, () => {});
      await expect(step).rejects.toThrow(/could not simulate this step: .*NaN or infinite logits.*Nothing was stored/);
      expect(store.getNodes(nodes[0]!.trajectoryId)).toHaveLength(1);
    } finally {
      await engine.dispose();
      store.close();
    }
  }, 600_000);
});
