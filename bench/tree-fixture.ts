// A generated 100,000-node trajectory shaped like a day of exploring: long chains of steps
// with branches off earlier states, every origin represented, real siblings to compare with.
import { mulberry32 } from '../src-main/common/seeded-random';
import { newId } from '../src-main/common/trajectory/ids';
import { EMPTY_CURATION, type NodeRecord, type Origin, type TrajectoryBundle } from '../src-main/common/trajectory/model';


const ORIGIN_MIX: [Origin, number][] = [
  ['simulated', 0.4],
  ['real', 0.3],
  ['perturbed', 0.1],
  ['imported', 0.1],
  ['edited', 0.05],
  ['manual', 0.05],
];

export function generatedTree(size: number, seed = 7): TrajectoryBundle {
  // Seeded, so every run measures the same tree.
  const rnd = mulberry32(seed);
  const now = new Date().toISOString();
  const trajectoryId = newId();
  const pickOrigin = (): Origin => {
    let r = rnd();
    for (const [o, p] of ORIGIN_MIX) if ((r -= p) < 0) return o;
    return 'simulated';
  };
  const root: NodeRecord = {
    id: newId(), trajectoryId, parentId: null, editedFromId: null, depth: 0, action: '',
    observation: 'agent@box:~/app$ ', reasoning: null, origin: 'manual', provenance: {},
    curation: EMPTY_CURATION, metrics: null, createdAt: now,
  };
  const nodes: NodeRecord[] = [root];
  let tip = root;
  for (let i = 1; i < size; i++) {
    // Mostly continue the current chain; sometimes branch off an earlier, shallower state.
    const parent = rnd() < 0.85 && tip.depth < 40 ? tip : nodes[Math.floor(rnd() * nodes.length)]!;
    const origin = pickOrigin();
    const file = `src/module_${i % 997}.py`;
    const node: NodeRecord = {
      id: newId(), trajectoryId, parentId: parent.id, editedFromId: null, depth: parent.depth + 1,
      action: rnd() < 0.5 ? `cat ${file}` : `python -m pytest tests/test_${i % 311}.py -q`,
      observation:
        `============================= test session starts ==============================\n` +
        `collected ${i % 17} items\n\ntests/test_${i % 311}.py ${'.'.repeat(i % 13)}${rnd() < 0.3 ? 'F' : ''}\n` +
        `\x1b[32m${i % 17} passed\x1b[0m in ${(rnd() * 3).toFixed(2)}s\nagent@box:~/app$ `,
      reasoning: null, origin, provenance: origin === 'simulated' ? { engine: 'onnx', modelId: 'bench', seed: i } : {},
      curation: rnd() < 0.02 ? { ...EMPTY_CURATION, starred: true, tags: ['bench'] } : EMPTY_CURATION,
      metrics: null, createdAt: now,
    };
    nodes.push(node);
    tip = node;
  }
  return {
    trajectory: { id: trajectoryId, title: `generated ${size.toLocaleString('en')}-node tree`, domain: 'terminal', systemPrompt: 'A Linux terminal.', worldSpec: null, createdAt: now, sourceKey: null },
    nodes,
  };
}
