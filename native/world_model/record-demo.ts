// Re-records the demo workspace (resources/demo/demo-trajectories.jsonl) with the app's
// current recorders, through the same function as `worldloom record`: two terminal sessions
// in the bubblewrap sandbox and one session on the reference MCP memory server. Run it when
// a recorder changes what it writes, so the demo shows what the app records today.
//
//   tsx native/world_model/record-demo.ts [--out FILE]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RealDomain, RealEnvironmentSettings } from '../../src-main/common/contract/reality';
import { worldloomJsonlExporter } from '../../src-main/formats/worldloom-jsonl/export';
import { recordTrajectory } from '../../src-main/reality/record';
import { WorkspaceStore } from '../../src-main/store/workspace-store';
import { REPO_ROOT } from './paths';

const require = createRequire(import.meta.url);

interface Demo {
  title: string;
  domain: RealDomain;
  actions: string[];
  settings: () => RealEnvironmentSettings;
}

const DEMOS: Demo[] = [
  {
    title: 'A small project: files, grep, a missing file',
    domain: 'terminal',
    actions: ['mkdir -p project/src && cd project', "printf 'name: demo\\nversion: 1\\n' > app.yaml", 'ls -la', 'cat app.yaml | grep version',
      'cat config.yaml', 'wc -l app.yaml', 'echo $HOME'],
    settings: () => ({}),
  },
  {
    title: 'Text tools, pipes and the errors bash prints',
    domain: 'terminal',
    actions: ['echo "alpha beta gamma" > words.txt', "tr ' ' '\\n' < words.txt | sort -r", 'grep -c a words.txt', 'cd nowhere', 'pwd',
      'head -n 1 missing.log', 'notacommand --help'],
    settings: () => ({}),
  },
  {
    title: 'MCP memory server: entities, observations, errors',
    domain: 'mcp',
    actions: [
      '{"name":"create_entities","arguments":{"entities":[{"name":"Ada","entityType":"person","observations":["writes programs"]}]}}',
      '{"name":"add_observations","arguments":{"observations":[{"entityName":"Ada","contents":["likes tea"]}]}}',
      '{"name":"read_graph","arguments":{}}',
      '{"name":"open_nodes","arguments":{"names":["Grace"]}}',
      '{"name":"add_observations","arguments":{"observations":[{"entityName":"Nobody","contents":["x"]}]}}',
    ],
    // A fresh knowledge graph in the sandbox's throwaway home (the server's default file would
    // sit in its read-only package folder and keep entities from earlier runs).
    settings: () => ({
      mcp: { command: 'node', args: [require.resolve('@modelcontextprotocol/server-memory/dist/index.js')], env: { MEMORY_FILE_PATH: '/home/agent/memory.jsonl' } },
    }),
  },
];

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string', default: join(REPO_ROOT, 'resources', 'demo', 'demo-trajectories.jsonl') } } });
  const scratch = mkdtempSync(join(tmpdir(), 'worldloom-demo-'));
  const store = WorkspaceStore.create(join(scratch, 'demo.worldloom'));
  try {
    const ids: string[] = [];
    for (const demo of DEMOS) {
      const recorded = await recordTrajectory(store, { domain: demo.domain, actions: demo.actions, title: demo.title, settings: demo.settings() });
      ids.push(recorded.trajectoryId);
      console.log(`${demo.title}: ${recorded.steps} steps (${recorded.sandbox})`);
    }
    let text = '';
    worldloomJsonlExporter.exportTo(ids.map((id) => ({ trajectory: store.getTrajectory(id)!, nodes: store.getNodes(id) })), (chunk) => {
      text += chunk;
    });
    writeFileSync(values.out!, text);
    console.log(`wrote ${ids.length} trajectories to ${values.out}`);
  } finally {
    store.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
