import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from './dispatch';
import { Studio } from './studio';
import { instructionFor, type PerturbationRecord } from '../common/perturbations/apply';
import { promptHash } from '../common/prompt/prompt-hash';
import type { NodeRecord } from '../common/trajectory/model';
import { messagesForStep } from '../simulation/simulate-step';

const TEST_MODEL = fileURLToPath(new URL('../engine/onnx/fixtures/qwen35/tiny-chat', import.meta.url));
const RESOURCES = fileURLToPath(new URL('../../resources', import.meta.url));

let studio: Studio;
let stepId: string;
let rootId: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wl-perturb-'));
  process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
  studio = new Studio({ door: 'host', resourcesDir: RESOURCES });
  studio.openWorkspace(join(dir, 'w.worldloom'), 'create');
  const { nodes } = studio.workspace!.createTrajectory({ title: 't', domain: 'terminal', systemPrompt: '', initialState: 'agent@box:~$ ' });
  rootId = nodes[0]!.id;
  stepId = studio.workspace!.addNode({ parentId: rootId, action: 'cp big.iso /mnt/usb/', observation: '', origin: 'real' }).id;
  await studio.models.load({ kind: 'onnx', path: TEST_MODEL });
});
afterAll(() => studio.dispose());

async function call<T>(method: string, input: unknown): Promise<T> {
  const envelope = await dispatch(studio, method, input);
  if (!envelope.ok) throw new Error(envelope.error.message);
  return envelope.value as T;
}

describe('perturbing a step', () => {
  it('sweeps kinds in transform mode: one perturbed sibling each, reproducible from provenance', async () => {
    const { nodes } = await call<{ nodes: NodeRecord[] }>('perturb.run', {
      jobId: 'p1',
      nodeId: stepId,
      mode: 'transform',
      kinds: [{ kindId: 'terminal.disk-full' }, { kindId: 'terminal.permission-denied' }],
      seed: 9,
    });
    expect(nodes).toHaveLength(2);
    for (const n of nodes) expect(n).toMatchObject({ parentId: rootId, action: 'cp big.iso /mnt/usb/', origin: 'perturbed', provenance: { perturbedFromId: stepId } });
    expect(nodes[0]!.observation).toMatch(/No space left on device/);
    expect(nodes[1]!.observation).toMatch(/Permission denied/);
    const records = nodes.map((n) => (n.provenance.perturbations as { kind: string; mode: string; seed: number }[])[0]!);
    expect(records.map((r) => [r.kind, r.mode])).toEqual([
      ['terminal.disk-full', 'transform'],
      ['terminal.permission-denied', 'transform'],
    ]);
    const again = await call<{ nodes: NodeRecord[] }>('perturb.run', { jobId: 'p2', nodeId: stepId, mode: 'transform', kinds: [{ kindId: 'terminal.disk-full' }], seed: 9 });
    expect(again.nodes[0]!.observation).toBe(nodes[0]!.observation);
  });

  it('puts the control instruction into the model input in instruction mode', async () => {
    const { nodes } = await call<{ nodes: NodeRecord[] }>('perturb.run', {
      jobId: 'p3',
      nodeId: stepId,
      mode: 'instruction',
      kinds: [{ kindId: 'terminal.disk-full' }, { kindId: 'terminal.command-not-found' }],
      sampling: { maxTokens: 6 },
    });
    expect(nodes).toHaveLength(2);
    expect(nodes.map((n) => n.origin)).toEqual(['perturbed', 'perturbed']);
    expect(nodes[0]!.provenance.promptHash).not.toBe(nodes[1]!.provenance.promptHash);
    expect(nodes[0]!.provenance).toMatchObject({ engine: 'onnx', perturbations: [{ kind: 'terminal.disk-full', mode: 'instruction' }] });
  });

  it('gives the model exactly the control instruction of the kind, in its system prompt, after the same history', async () => {
    const { nodes } = await call<{ nodes: NodeRecord[] }>('perturb.run', {
      jobId: 'p4',
      nodeId: stepId,
      mode: 'instruction',
      kinds: [{ kindId: 'terminal.disk-full' }],
      sampling: { maxTokens: 4 },
    });
    const record = (nodes[0]!.provenance.perturbations as PerturbationRecord[])[0]!;
    const instruction = instructionFor(record, { domain: 'terminal', action: 'cp big.iso /mnt/usb/' });
    const templates = { builtinDir: join(RESOURCES, 'prompts') };
    const plain = await messagesForStep(studio.workspace!, templates, rootId, 'cp big.iso /mnt/usb/');
    const perturbed = await messagesForStep(studio.workspace!, templates, rootId, 'cp big.iso /mnt/usb/', instruction);
    expect(instruction).toMatch(/^\*\*Simulation control \(Disk full/);
    expect(perturbed[0]!.content).toContain(instruction);
    expect(plain[0]!.content).not.toContain('Simulation control');
    expect(perturbed.slice(1)).toEqual(plain.slice(1));
    // What the job sent the model is exactly these messages, recorded by their hash.
    expect(nodes[0]!.provenance.promptHash).toBe(await promptHash(perturbed));
  });

  it('lists the catalog with defaults and refuses a malformed workspace perturbation file', async () => {
    const kinds = await call<{ id: string; defaults: object }[]>('perturb.catalog', { domain: 'terminal' });
    expect(kinds.length).toBeGreaterThanOrEqual(6);
    const bad = await call<{ ok: boolean; problems: { path: string }[] }>('perturb.setUserFile', { text: '{"kinds": [{"id": 3}]}' });
    expect(bad.ok).toBe(false);
    expect(bad.problems.length).toBeGreaterThan(0);
    expect((await call<{ text: string }>('perturb.userFile', {})).text).toBe('');
  });

  it('refuses to perturb the initial state, saying what to do', async () => {
    const envelope = await dispatch(studio, 'perturb.run', { jobId: 'x', nodeId: rootId, mode: 'transform', kinds: [{ kindId: 'terminal.disk-full' }] });
    expect(envelope).toMatchObject({ ok: false });
    expect(!envelope.ok && envelope.error.message).toMatch(/choose a step below it/);
  });
});
