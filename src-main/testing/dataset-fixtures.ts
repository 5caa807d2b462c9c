// Trajectory trees for the dataset tests: several paths, curation, reasoning, a perturbed
// step, secrets to scrub, and an exact copy of one trajectory. Deterministic.
import { EMPTY_CURATION, type Domain, type NodeRecord, type TrajectoryBundle } from '../common/trajectory/model';
import type { BundleSource } from '../dataset/export-dataset';

export interface StepSpec {
  action: string;
  observation: string;
  reasoning?: string;
  starred?: boolean;
  rating?: number;
  tags?: string[];
  origin?: NodeRecord['origin'];
  modelId?: string;
  seed?: number;
  perturbation?: string;
  metrics?: Record<string, number>;
  createdAt?: string;
  children?: StepSpec[];
}

export function treeBundle(id: string, domain: Domain, systemPrompt: string, initialState: string, steps: StepSpec[], worldSpec: TrajectoryBundle['trajectory']['worldSpec'] = null): TrajectoryBundle {
  const nodes: NodeRecord[] = [];
  let n = 0;
  const add = (parent: NodeRecord | null, spec: StepSpec | null): NodeRecord => {
    const node: NodeRecord = {
      id: `${id}-n${n++}`,
      trajectoryId: id,
      parentId: parent?.id ?? null,
      editedFromId: null,
      depth: parent ? parent.depth + 1 : 0,
      action: spec?.action ?? '',
      observation: spec?.observation ?? initialState,
      reasoning: spec?.reasoning ?? null,
      origin: spec?.origin ?? 'imported',
      provenance: {
        ...(spec?.modelId ? { modelId: spec.modelId, engine: 'onnx' } : {}),
        ...(spec?.seed !== undefined ? { seed: spec.seed } : {}),
        ...(spec?.perturbation ? { perturbations: [{ kind: spec.perturbation, mode: 'transform', params: {}, seed: 1, version: 1 }] } : {}),
        source: { format: spec?.modelId ? 'simulation' : 'agentworldbench' },
      },
      curation: { ...EMPTY_CURATION, starred: spec?.starred ?? false, rating: spec?.rating ?? null, tags: spec?.tags ?? [] },
      metrics: spec?.metrics ?? null,
      createdAt: spec?.createdAt ?? '2025-05-01T10:00:00.000Z',
    };
    nodes.push(node);
    return node;
  };
  const root = add(null, null);
  // Breadth-first, so parents always come before children as the store returns them.
  let level: [NodeRecord, StepSpec[]][] = [[root, steps]];
  while (level.length > 0) {
    const next: [NodeRecord, StepSpec[]][] = [];
    for (const [parent, specs] of level) for (const spec of specs) next.push([add(parent, spec), spec.children ?? []]);
    level = next;
  }
  return { trajectory: { id, title: `${domain} ${id}`, domain, systemPrompt, worldSpec, createdAt: '2025-05-01T09:00:00.000Z', sourceKey: null }, nodes };
}

const SEARCH_STEPS: StepSpec[] = [{ action: 'search: cat breeds', observation: '1. Maine Coon\n2. Siamese', children: [{ action: 'open: result 1', observation: 'Maine Coon: a large domesticated cat.' }] }];

export function fixtureBundles(): TrajectoryBundle[] {
  return [
    treeBundle(
      't1',
      'terminal',
      'You simulate a Linux terminal.\n\n{{#world_spec}}## Facts\n{{world_spec}}\n{{/world_spec}}{{#initial_state}}## Start\n{{initial_state}}\n{{/initial_state}}',
      'user@box:~$',
      [
        {
          action: 'ls',
          observation: 'notes.txt  src',
          children: [
            {
              action: 'cat notes.txt',
              observation: 'remember the milk and the eggs and the bread for the weekend trip',
              reasoning: 'notes.txt was listed; a shopping note is plausible.',
              starred: true,
              rating: 5,
              tags: ['good'],
              children: [
                {
                  action: 'curl -s http://intranet/config',
                  observation: 'admin: jane.doe@corp-mail.io\nhost: 10.1.2.3\napi_key = sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX123456',
                  origin: 'perturbed',
                  perturbation: 'terminal.leaky-config',
                  rating: 2,
                  createdAt: '2025-06-02T08:00:00.000Z',
                },
              ],
            },
            {
              action: 'cat notes.txt',
              observation: 'remember the milk and the eggs and the bread for the weekend trip!',
              origin: 'simulated',
              modelId: 'qwen-agentworld',
              seed: 7,
              metrics: { similarity: 0.97 },
            },
          ],
        },
      ],
      { text: 'A small home directory.', facts: [{ subject: 'user', value: 'user' }] },
    ),
    treeBundle('t2', 'search', 'You simulate a web search engine.', '', SEARCH_STEPS),
    // The same search trajectory imported a second time, from another source.
    treeBundle('t3', 'search', 'You simulate a web search engine.', '', SEARCH_STEPS),
  ];
}

/** `count` single-path terminal trajectories with distinct content, for split tests. */
export function manyBundles(count: number): TrajectoryBundle[] {
  return Array.from({ length: count }, (_, i) =>
    treeBundle(`m${String(i).padStart(3, '0')}`, 'terminal', 'You simulate a Linux terminal.', '$', [
      { action: `echo run-${i}`, observation: `run-${i}`, children: [{ action: `wc -c file-${i}`, observation: `${i * 13} file-${i}` }] },
    ]),
  );
}

export function bundleSource(bundles: readonly TrajectoryBundle[]): BundleSource {
  return {
    *iterateBundles(ids) {
      for (const b of bundles) if (!ids || ids.includes(b.trajectory.id)) yield b;
    },
  };
}
