// AgentWorldBench JSONL, written: one line per evaluated turn, each carrying its whole path;
// ./import.ts reads it back into the same trajectories. A branching trajectory is written
// once per root-to-leaf path.
import type { NodeRecord } from '../../common/trajectory/model';
import { promptForAction, responseForObservation, type GuiBlocks } from '../../common/trajectory/turn-format';
import type { TrajectoryExporter } from '../../dataset/writing/file-writer';

/** The GUI blocks a node's turn is written with, as the import kept them. */
function nodeGui(node: NodeRecord): GuiBlocks | undefined {
  const gui = (node.provenance as { gui?: unknown }).gui;
  return gui && typeof gui === 'object' ? (gui as GuiBlocks) : undefined;
}

/** Every root-to-leaf path of a trajectory, each a list of step nodes (root excluded). */
export function leafPaths(nodes: readonly NodeRecord[]): NodeRecord[][] {
  const children = new Map<string | null, NodeRecord[]>();
  for (const n of nodes) {
    const list = children.get(n.parentId) ?? [];
    list.push(n);
    children.set(n.parentId, list);
  }
  const paths: NodeRecord[][] = [];
  const walk = (node: NodeRecord, path: NodeRecord[]) => {
    const kids = children.get(node.id) ?? [];
    if (kids.length === 0) {
      if (path.length > 0) paths.push(path);
      return;
    }
    for (const kid of kids) walk(kid, [...path, kid]);
  };
  for (const root of children.get(null) ?? []) walk(root, []);
  return paths;
}

export const agentWorldBenchExporter: TrajectoryExporter = {
  id: 'agentworldbench',
  label: 'AgentWorldBench JSONL',
  extension: 'jsonl',
  exportTo(bundles, write) {
    let trajectories = 0;
    let records = 0;
    for (const { trajectory, nodes } of bundles) {
      const root = nodes.find((n) => n.parentId === null);
      const baseId = root?.provenance.source?.sampleId ?? trajectory.id;
      const task = root?.provenance.source?.task ?? trajectory.domain;
      const paths = leafPaths(nodes);
      paths.forEach((path, p) => {
        const prompt = path.map((n, i) => n.provenance.source?.rawAction ?? promptForAction(i + 1, n.action, nodeGui(n)));
        const response = path.map((n) => n.provenance.source?.rawObservation ?? responseForObservation(n.observation));
        const id = paths.length > 1 ? `${baseId}#${p + 1}` : baseId;
        for (let t = 0; t < path.length; t++) {
          write(
            JSON.stringify({
              task,
              id,
              prompt,
              response,
              current_prompt: prompt[t],
              system_str: trajectory.systemPrompt,
              turn_idx: t + 1,
              total_turns: path.length,
            }) + '\n',
          );
          records++;
        }
      });
      trajectories++;
    }
    return { trajectories, records };
  },
};
