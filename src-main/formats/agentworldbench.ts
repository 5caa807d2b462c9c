// AgentWorldBench JSONL (import and export). The benchmark unrolls each trajectory into
// one line per evaluated turn, every line repeating the whole trajectory; lines that
// share a system prompt and turn lists are one trajectory and are imported once.
import { z } from 'zod';
import { chainBundle } from '../common/trajectory/build';
import { DOMAINS, type Domain, type NodeRecord, type TrajectoryBundle } from '../common/trajectory/model';
import { jsonLines } from './json-lines';
import type { ImportItem, ImportSource, TrajectoryExporter, TrajectoryImporter } from './format';
import { contentKey } from './content-key';
import { actionFromPrompt, observationFromResponse, promptForAction, responseForObservation } from '../common/trajectory/turn-format';

export { actionFromPrompt, observationFromResponse, promptForAction, responseForObservation };


/** One line of an AgentWorldBench file: one evaluated turn, carrying its whole trajectory. */
export const AwbLine = z.object({
  task: z.string(),
  id: z.union([z.string(), z.number()]),
  prompt: z.array(z.string()).min(1),
  response: z.array(z.string()),
  current_prompt: z.string().optional(),
  system_str: z.string(),
  turn_idx: z.number().int().min(1).optional(),
  total_turns: z.number().int().min(1).optional(),
});
export type AwbLine = z.infer<typeof AwbLine>;

/** The domain named by `task` ("prefix/terminal" → terminal), else by a `<domain>_test.jsonl` file name. */
export function domainOf(task: string, fileName: string): Domain | undefined {
  const fromTask = task.split('/').pop()!.trim().toLowerCase();
  if ((DOMAINS as readonly string[]).includes(fromTask)) return fromTask as Domain;
  const fromFile = /(?:^|[\\/])([a-z]+)_test\.jsonl$/i.exec(fileName)?.[1]?.toLowerCase();
  if (fromFile && (DOMAINS as readonly string[]).includes(fromFile)) return fromFile as Domain;
  return undefined;
}





function describeZodError(err: z.ZodError): { field: string; reason: string } {
  const issue = err.issues[0]!;
  const field = issue.path.join('.') || '(line)';
  return { field, reason: `${field}: ${issue.message}` };
}

export const agentWorldBenchImporter: TrajectoryImporter = {
  id: 'agentworldbench',
  label: 'AgentWorldBench JSONL',
  detect(name, head) {
    const first = head.split('\n', 1)[0] ?? '';
    if (first.includes('"system_str"') && first.includes('"response"') && first.includes('"prompt"')) return 0.95;
    return /_test\.jsonl$/i.test(name) ? 0.4 : 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const seen = new SeenTrajectories();
    for (const item of jsonLines(source)) {
      if (item.kind === 'problem') {
        yield item;
        continue;
      }
      const raw = item.value;
      const parsed = AwbLine.safeParse(raw);
      if (!parsed.success) {
        const { field, reason } = describeZodError(parsed.error);
        yield { kind: 'problem', line: item.lineNo, field, reason };
        continue;
      }
      const rec: AwbLine = parsed.data;
      if (rec.response.length !== rec.prompt.length) {
        yield {
          kind: 'problem',
          line: item.lineNo,
          field: 'response',
          reason: `response has ${rec.response.length} turns but prompt has ${rec.prompt.length}`,
        };
        continue;
      }
      const domain = domainOf(rec.task, source.name);
      if (!domain) {
        yield {
          kind: 'problem',
          line: item.lineNo,
          field: 'task',
          reason: `unknown domain "${rec.task}" (expected one of ${DOMAINS.join(', ')})`,
        };
        continue;
      }
      if (seen.repeats(rec)) continue;
      const key = contentKey(['awb', rec.system_str, ...rec.prompt, '\u0000', ...rec.response]);
      if (!seen.add(rec, key)) continue;
      yield { kind: 'trajectory', bundle: bundleFromLine(rec, domain, key, source.name, item.lineNo, newId, now) };
    }
  },
};

/**
 * The trajectories met so far in one file. Hashing every line's whole content would cost
 * more than parsing it, so a line is first compared (string equality, no hashing) with
 * the trajectory last seen under the same sample id; only new content is hashed.
 */
class SeenTrajectories {
  private readonly keys = new Set<string>();
  private readonly lastById = new Map<string, AwbLine>();

  repeats(rec: AwbLine): boolean {
    const prev = this.lastById.get(String(rec.id));
    return (
      prev !== undefined &&
      prev.system_str === rec.system_str &&
      sameStrings(prev.prompt, rec.prompt) &&
      sameStrings(prev.response, rec.response)
    );
  }

  /** Records a trajectory; false when its content was already seen under another id. */
  add(rec: AwbLine, key: string): boolean {
    this.lastById.set(String(rec.id), rec);
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    return true;
  }
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function bundleFromLine(
  rec: AwbLine,
  domain: Domain,
  key: string,
  file: string,
  lineNo: number,
  newId: () => string,
  now: string,
): TrajectoryBundle {
  const sampleId = String(rec.id);
  return chainBundle(
    {
      title: `${domain} · ${sampleId}`,
      domain,
      systemPrompt: rec.system_str,
      sourceKey: key,
      rootProvenance: { source: { format: 'agentworldbench', file, line: lineNo, sampleId, task: rec.task } },
      steps: rec.prompt.map((prompt, i) => {
        const action = actionFromPrompt(prompt);
        const observation = observationFromResponse(rec.response[i]!);
        return {
          action,
          observation,
          origin: 'imported' as const,
          provenance: {
            source: {
              format: 'agentworldbench',
              file,
              line: lineNo,
              sampleId,
              // Kept only when rebuilding from the parsed parts would not give the same text.
              ...(promptForAction(i + 1, action) !== prompt ? { rawAction: prompt } : {}),
              ...(responseForObservation(observation) !== rec.response[i] ? { rawObservation: rec.response[i] } : {}),
            },
          },
        };
      }),
    },
    newId,
    now,
  );
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
        const prompt = path.map((n, i) => n.provenance.source?.rawAction ?? promptForAction(i + 1, n.action));
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
