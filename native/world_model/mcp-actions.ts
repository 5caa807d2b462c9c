// Picks the calls of one MCP trajectory against the official filesystem or memory server:
// valid calls, calls that fail inside the tool (isError results), and calls that break the
// input schema or name no tool (JSON-RPC errors). What the servers answer always comes
// from the real servers, through the app's MCP recorder (record-mcp.ts).
import type { Rng } from './rng';

export type McpServerName = 'filesystem' | 'memory';

/** A tools/call as the app's MCP recorder takes it (the action is this as JSON). */
export interface McpCall {
  name: string;
  arguments: Record<string, unknown>;
}

const FILES = ['notes.txt', 'todo.md', 'config.json', 'readme.md', 'data.csv', 'plan.txt', 'log.txt', 'ideas.md', 'hello.py'];
const DIRS = ['docs', 'src', 'data', 'archive', 'drafts'];
const WORDS = ['alpha', 'beta', 'release', 'meeting', 'budget', 'draft', 'review', 'deploy', 'fix', 'test', 'hello',
  'world', 'notes', 'config', 'server', 'client', 'monday', 'friday', 'done', 'pending'];
const PEOPLE = ['Alice', 'Bob', 'Carol', 'Dave', 'Erin', 'Frank', 'Grace', 'Heidi'];
const THINGS = ['Project_X', 'Apollo', 'Berlin', 'Paris', 'Acme_Corp', 'Worldloom', 'Kitchen', 'Garden'];
const TYPES = ['person', 'project', 'city', 'company', 'place'];
const RELATIONS = ['works_on', 'lives_in', 'knows', 'manages', 'visited'];
const FACTS = ['likes coffee', 'speaks French', 'started in 2021', 'is remote', 'has a cat', 'prefers tea', 'uses Linux',
  'is on vacation', 'leads the team', 'was founded in 1999'];

const text = (rng: Rng): string => Array.from({ length: rng.int(1, 3) }, () => Array.from({ length: rng.int(1, 4) }, () => rng.pick(WORDS)).join(' ')).join('\n');
const call = (name: string, args: Record<string, unknown>): McpCall => ({ name, arguments: args });

function filesystemCall(rng: Rng, root: string, files: Map<string, string>, dirs: Set<string>): McpCall {
  const at = (...parts: string[]): string => [root, ...parts].join('/');
  const known = [...files.keys()];
  const missing = FILES.filter((f) => !files.has(f));
  const kind = rng.weighted({ write: 6, read: 5, readMissing: 4, list: 3, mkdir: 2, move: 1, search: 2, edit: 2, tree: 1,
    allowed: 1, outside: 2, badArgs: 2, unknownTool: 1, multi: 1 });
  if ((kind === 'read' || kind === 'move' || kind === 'edit' || kind === 'multi') && known.length === 0) return filesystemCall(rng, root, files, dirs);
  switch (kind) {
    case 'write': {
      const name = rng.pick(FILES);
      const content = text(rng);
      const dir = dirs.size && rng.chance(0.3) ? rng.pick([...dirs]) : '';
      if (!dir) files.set(name, content);
      return call('write_file', { path: dir ? at(dir, name) : at(name), content });
    }
    case 'read': {
      const name = rng.pick(known);
      const r = rng.next();
      return call('read_text_file', r < 0.7 ? { path: at(name) } : r < 0.85 ? { path: at(name), head: 1 } : { path: at(name), tail: 1 });
    }
    case 'readMissing':
      return call(rng.pick(['read_text_file', 'read_text_file', 'get_file_info', 'list_directory']),
        { path: at(missing.length ? rng.pick(missing) : 'missing.txt') });
    case 'list':
      return call(rng.pick(['list_directory', 'list_directory', 'list_directory_with_sizes']), { path: dirs.size && rng.chance(0.3) ? at(rng.pick([...dirs])) : root });
    case 'mkdir': {
      const d = rng.pick(DIRS);
      dirs.add(d);
      return call('create_directory', { path: at(d) });
    }
    case 'move': {
      const name = rng.pick(known);
      const target = rng.pick(FILES);
      files.set(target, files.get(name)!);
      files.delete(name);
      return call('move_file', { source: at(name), destination: at(target) });
    }
    case 'search':
      return call('search_files', { path: root, pattern: rng.pick(['*.txt', '*.md', '*.json', '**/*.txt', 'notes*', '*.py']) });
    case 'edit': {
      const name = rng.pick(known);
      const lines = files.get(name)!.split('\n');
      const old = rng.chance(0.8) ? rng.pick(lines) : 'no such line';
      const replacement = text(rng).split('\n')[0]!;
      if (lines.includes(old)) files.set(name, files.get(name)!.replace(old, replacement));
      return call('edit_file', { path: at(name), edits: [{ oldText: old, newText: replacement }] });
    }
    case 'tree':
      return call('directory_tree', { path: root });
    case 'allowed':
      return call('list_allowed_directories', {});
    case 'outside':
      return call(rng.pick(['read_text_file', 'list_directory', 'write_file']), rng.chance(0.5)
        ? { path: rng.pick(['/etc/passwd', '/root/.ssh/id_rsa', '/etc/hosts', '/var/log/syslog']), content: 'x' }
        : { path: rng.pick(['/etc', '/home', '/tmp']) });
    case 'badArgs':
      return rng.pick([
        call('read_text_file', {}),
        call('write_file', { path: at(rng.pick(FILES)) }),
        call('read_text_file', { path: rng.int(1, 99) }),
        call('create_directory', { name: rng.pick(DIRS) }),
        call('list_directory', { path: [root] }),
      ]);
    case 'unknownTool':
      return call(rng.pick(['delete_file', 'remove_file', 'read', 'copy_file', 'rename']), { path: at(rng.pick(FILES)) });
    case 'multi':
      return call('read_multiple_files', { paths: [at(rng.pick(known)), at(rng.pick([...FILES]))] });
  }
}

interface Entity {
  observations: string[];
}

function memoryCall(rng: Rng, graph: Map<string, Entity>): McpCall {
  const names = [...graph.keys()];
  const kind = rng.weighted({ create: 6, relate: 3, observe: 3, observeMissing: 2, search: 3, open: 2, read: 2, delete: 1,
    deleteObs: 1, badArgs: 2, unknownTool: 1 });
  if (['relate', 'observe', 'delete', 'deleteObs'].includes(kind) && names.length === 0) return memoryCall(rng, graph);
  switch (kind) {
    case 'create': {
      const entities = Array.from({ length: rng.int(1, 2) }, () => {
        const name = rng.chance(0.5) ? rng.pick(PEOPLE) : rng.pick(THINGS);
        const observations = rng.chance(0.8) ? [rng.pick(FACTS)] : [];
        if (!graph.has(name)) graph.set(name, { observations });
        return { name, entityType: rng.pick(TYPES), observations };
      });
      return call('create_entities', { entities });
    }
    case 'relate': {
      const from = rng.pick(names);
      const to = rng.chance(0.8) ? rng.pick(names) : rng.pick([...PEOPLE, ...THINGS]);
      return call('create_relations', { relations: [{ from, to, relationType: rng.pick(RELATIONS) }] });
    }
    case 'observe': {
      const name = rng.pick(names);
      const fact = rng.pick(FACTS);
      graph.get(name)!.observations.push(fact);
      return call('add_observations', { observations: [{ entityName: name, contents: [fact] }] });
    }
    case 'observeMissing': {
      const name = rng.pick([...PEOPLE, ...THINGS].filter((n) => !graph.has(n)));
      return call('add_observations', { observations: [{ entityName: name, contents: [rng.pick(FACTS)] }] });
    }
    case 'search':
      return call('search_nodes', { query: rng.chance(0.6) && names.length ? rng.pick(names).toLowerCase() : rng.pick([...FACTS.map((f) => f.split(' ')[1]!), ...TYPES]) });
    case 'open':
      return call('open_nodes', { names: [rng.pick([...names, ...PEOPLE])] });
    case 'read':
      return call('read_graph', {});
    case 'delete': {
      const name = rng.pick(names);
      graph.delete(name);
      return call('delete_entities', { entityNames: [name] });
    }
    case 'deleteObs': {
      const name = rng.pick(names);
      return call('delete_observations', { deletions: [{ entityName: name, observations: [rng.pick(FACTS)] }] });
    }
    case 'badArgs':
      return rng.pick([
        call('create_entities', { entities: [{ name: rng.pick(PEOPLE) }] }),
        call('create_entities', {}),
        call('search_nodes', { text: rng.pick(WORDS) }),
        call('open_nodes', { names: rng.pick(PEOPLE) }),
        call('create_relations', { relations: [{ from: rng.pick(PEOPLE), to: rng.pick(THINGS) }] }),
      ]);
    case 'unknownTool':
      return call(rng.pick(['delete_graph', 'get_entity', 'update_entity', 'list_entities', 'search']), { name: rng.pick(PEOPLE) });
  }
}

/** The calls of one trajectory (2 to 6 of them) against one server; `root` is the filesystem server's directory. */
export function mcpCalls(rng: Rng, server: McpServerName, root: string): McpCall[] {
  const n = rng.int(2, 6);
  const out: McpCall[] = [];
  const files = new Map<string, string>();
  const dirs = new Set<string>();
  const graph = new Map<string, Entity>();
  for (let i = 0; i < n; i++) out.push(server === 'filesystem' ? filesystemCall(rng, root, files, dirs) : memoryCall(rng, graph));
  return out;
}
