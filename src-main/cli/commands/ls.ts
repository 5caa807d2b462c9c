// `worldloom ls`: the trajectories of a workspace, or one trajectory's nodes, with the ids
// every other verb takes. A table for people, `--json` for scripts.
import type { Command } from 'commander';
import type { NodeRecord, TrajectorySummary } from '../../common/trajectory/model';
import { withCore } from '../core';

interface LsOptions {
  workspace: string;
  trajectory?: string;
  json?: boolean;
}

/** Columns padded to their widest cell; the last column is left as is. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

/** An action on one line: its first line, cut to `width` characters, with a mark when more was left out. */
function oneLine(text: string, width: number): string {
  const first = text.split('\n')[0]!;
  const more = first.length < text.trimEnd().length;
  return first.length > width ? `${first.slice(0, width - 1)}…` : more ? `${first} …` : first;
}

/** Parents before children, each child under its parent, siblings in the order they were made. */
export function treeOrder(nodes: readonly NodeRecord[]): NodeRecord[] {
  const children = new Map<string | null, NodeRecord[]>();
  for (const n of nodes) {
    const list = children.get(n.parentId) ?? [];
    list.push(n);
    children.set(n.parentId, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const ordered: NodeRecord[] = [];
  const stack = [...(children.get(null) ?? [])].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    ordered.push(n);
    stack.push(...[...(children.get(n.id) ?? [])].reverse());
  }
  return ordered;
}

function marks(n: NodeRecord): string {
  const { starred, rating, tags } = n.curation;
  return [starred ? '★' : '', rating !== null ? `${rating}/5` : '', ...tags.map((t) => `#${t}`)].filter(Boolean).join(' ');
}

function trajectoryTable(list: readonly TrajectorySummary[]): string {
  return table(
    ['ID', 'DOMAIN', 'STEPS', 'DEPTH', 'TITLE'],
    list.map((t) => [t.id, t.domain, String(t.steps), String(t.maxDepth), t.title]),
  );
}

function nodeTable(nodes: readonly NodeRecord[]): string {
  return table(
    ['ID', 'PARENT', 'DEPTH', 'ORIGIN', 'MARKS', 'ACTION'],
    nodes.map((n) => [n.id, n.parentId ?? '-', String(n.depth), n.origin, marks(n), n.parentId === null ? '(initial state)' : oneLine(n.action, 60)]),
  );
}

export function registerLs(program: Command): void {
  program
    .command('ls')
    .description("list a workspace's trajectories, or with --trajectory the nodes of one (ids, depth, origin, action)")
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .option('-t, --trajectory <id>', "list this trajectory's nodes, parents before children")
    .option('--json', 'print JSON instead of a table')
    .action((opts: LsOptions) =>
      withCore({ workspace: { path: opts.workspace } }, async (core) => {
        if (!opts.trajectory) {
          const list = await core.call('trajectory.list', {});
          if (opts.json) {
            const rows = list.map(({ id, title, domain, steps, maxDepth, createdAt }) => ({ id, title, domain, steps, maxDepth, createdAt }));
            process.stdout.write(JSON.stringify(rows) + '\n');
          } else if (list.length === 0) {
            process.stdout.write('This workspace holds no trajectories yet: `worldloom import FILE… --workspace W` adds some.\n');
          } else {
            process.stdout.write(trajectoryTable(list));
            process.stderr.write(`${list.length} ${list.length === 1 ? 'trajectory' : 'trajectories'}; \`worldloom ls --workspace ${opts.workspace} --trajectory ID\` lists one's nodes.\n`);
          }
          return;
        }
        const { trajectory, nodes } = await core.call('trajectory.get', { id: opts.trajectory });
        const ordered = treeOrder(nodes);
        if (opts.json) {
          const rows = ordered.map((n) => ({
            id: n.id,
            parentId: n.parentId,
            depth: n.depth,
            origin: n.origin,
            action: n.action,
            editedFromId: n.editedFromId,
            curation: n.curation,
          }));
          process.stdout.write(JSON.stringify({ trajectory: { id: trajectory.id, title: trajectory.title, domain: trajectory.domain }, nodes: rows }) + '\n');
          return;
        }
        process.stdout.write(`${trajectory.title} (${trajectory.domain}, ${trajectory.id})\n`);
        process.stdout.write(nodeTable(ordered));
      }),
    );
}
