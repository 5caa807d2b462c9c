// AgentWorldBench JSONL: world-model paths as the benchmark lays them out, one file per
// domain (`<split>/<domain>_test.jsonl`), written by the project's AgentWorldBench
// exporter so the two can never disagree. The system prompt is written as the model saw
// it (template filled), so re-importing gives back the same chat.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { agentWorldBenchExporter } from './export';
import { agentWorldBenchImporter } from './import';
import { fileSource } from '../../parsing/sources';
import { chainBundle } from '../../common/trajectory/build';
import { actionFromPrompt, observationFromResponse } from '../../common/trajectory/turn-format';
import { buildExamples } from '../../dataset/builders';
import type { DatasetExample } from '../../dataset/example';
import { SPLITS } from '../../dataset/example';
import { LineFile } from '../../dataset/writing/line-file';
import type { DatasetFormatSpec, ReadExample } from '../../dataset/writing/dataset-format';

/** A world-model path example back as a single-path trajectory the exporter understands. */
function exampleBundle(example: DatasetExample) {
  const [system, ...turns] = example.messages;
  let n = 0;
  return chainBundle(
    {
      title: example.title,
      domain: example.domain,
      systemPrompt: system?.content ?? '',
      rootProvenance: { source: { format: 'agentworldbench', sampleId: example.id, task: example.domain } },
      steps: turns.flatMap((m, i) =>
        m.role === 'user' ? [{ action: actionFromPrompt(m.content), observation: observationFromResponse(turns[i + 1]?.content ?? ''), origin: example.origin }] : [],
      ),
    },
    () => `awb-${n++}`,
    example.createdAt,
  );
}

export const agentWorldBenchFormat: DatasetFormatSpec = {
  id: 'agentworldbench',
  label: 'AgentWorldBench JSONL',
  refuses(options) {
    return options.builder === 'world-model' ? null : 'AgentWorldBench files hold world-model trajectories; choose the world-model builder for this format.';
  },
  howToLoad() {
    return 'One `<domain>_test.jsonl` per domain and split, one line per turn of each path, as AgentWorldBench lays them out; Worldloom imports them back.';
  },
  dataFiles: (split) => [`${split}/*_test.jsonl`],
  open(dir) {
    const files = new Map<string, LineFile>();
    return {
      write(example, split) {
        const name = `${split}/${example.domain}_test.jsonl`;
        let file = files.get(name);
        if (!file) {
          mkdirSync(join(dir, split), { recursive: true });
          files.set(name, (file = new LineFile(join(dir, name))));
        }
        let text = '';
        agentWorldBenchExporter.exportTo([exampleBundle(example)], (chunk) => (text += chunk));
        return file.write(text);
      },
      async finish() {
        for (const file of files.values()) await file.close();
        return [...files.keys()].sort();
      },
    };
  },
  async read(dir) {
    const out: ReadExample[] = [];
    for (const split of SPLITS) {
      const folder = join(dir, split);
      if (!existsSync(folder)) continue;
      for (const name of readdirSync(folder).filter((f) => f.endsWith('_test.jsonl')).sort()) {
        let n = 0;
        for (const item of agentWorldBenchImporter.parse(fileSource(join(folder, name)), () => `r${n++}`, '')) {
          if (item.kind === 'problem') throw new Error(`${split}/${name} line ${item.line ?? '?'}: ${item.reason}`);
          if (item.kind === 'skipped') continue;
          const { bundle } = item;
          const leaf = bundle.nodes[bundle.nodes.length - 1]!;
          const [example] = buildExamples(bundle, [leaf], { builder: 'world-model', per: 'path', reasoning: false });
          out.push({ split, id: bundle.nodes[0]!.provenance.source?.sampleId, messages: example!.messages });
        }
      }
    }
    return out;
  },
};
