import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpEnvironment, parseToolCall } from './mcp-environment';

// The working directory (the project, read-only in the sandbox) holds the servers' code.
const cwd = process.cwd();
const memoryServer = { command: process.execPath, args: [join('node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js')], cwd };
const filesystemServer = (dir: string) => ({
  command: process.execPath,
  args: [join('node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'), dir],
  cwd,
});
/** A folder to share with a server; open to others, since a root caller's sandbox runs as nobody. */
function sharedFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wl-mcp-fs-'));
  chmodSync(dir, 0o777);
  return dir;
}
const shellServer = { command: process.execPath, args: [join('src-main', 'reality', 'fixtures', 'shell-mcp-server.mjs')], cwd };
const memoryAt = (shared: string, file: string) => ({ ...memoryServer, args: [...memoryServer.args, shared], env: { MEMORY_FILE_PATH: file } });
const call = (name: string, args: Record<string, unknown>) => JSON.stringify({ name, arguments: args });
const sh = (line: string) => JSON.stringify({ name: 'sh', arguments: { line } });
const text = (observation: string) => (JSON.parse(observation) as { content: { text: string }[] }).content[0]!.text;
const noBwrap = process.platform === 'linux' && !existsSync(process.env.WORLDLOOM_BWRAP ?? '/usr/bin/bwrap') ? ' — skipped: bubblewrap is not installed' : '';

describe('a real MCP server', () => {
  it('lists the memory server tools and records calls with their results', async () => {
    // The sandbox's own /tmp: the server may write nowhere else but folders shared with it.
    const env = new McpEnvironment({ ...memoryServer, env: { MEMORY_FILE_PATH: process.platform === 'linux' ? '/tmp/memory.jsonl' : join(sharedFolder(), 'memory.jsonl') } });
    try {
      await env.start();
      expect(env.listTools().map((t) => (t as { name: string }).name)).toContain('create_entities');
      expect(env.description()).toMatch(/Tools \(from tools\/list\)/);
      const created = await env.step(JSON.stringify({ name: 'create_entities', arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote programs'] }] } }));
      expect(JSON.parse(created.observation)).toHaveProperty('content');
      expect(created.details).toMatchObject({ mcp: { isError: false } });
      const read = await env.step(JSON.stringify({ name: 'read_graph', arguments: {} }));
      expect(read.observation).toContain('Ada');
      expect(env.log).toHaveLength(2);
    } finally {
      await env.dispose();
    }
  });

  it('keeps a failing tool result (isError) and a protocol error as observations', async () => {
    const dir = sharedFolder();
    writeFileSync(join(dir, 'hello.txt'), 'hello world\n');
    const env = new McpEnvironment(filesystemServer(dir));
    try {
      await env.start();
      const ok = await env.step(JSON.stringify({ name: 'read_text_file', arguments: { path: join(dir, 'hello.txt') } }));
      expect(ok.observation).toContain('hello world');
      const outside = await env.step(JSON.stringify({ name: 'read_text_file', arguments: { path: '/etc/hostname' } }));
      expect(JSON.parse(outside.observation)).toMatchObject({ isError: true });
      expect(outside.details).toMatchObject({ mcp: { isError: true } });
      const unknown = await env.step(JSON.stringify({ name: 'no_such_tool', arguments: {} }));
      const parsed = JSON.parse(unknown.observation) as { isError?: boolean; code?: number };
      // Servers answer an unknown tool either as a protocol error or as an isError result; both are kept.
      expect(parsed.isError === true || typeof parsed.code === 'number').toBe(true);
    } finally {
      await env.dispose();
    }
  });

  it('says what is wrong with a malformed action and with a server that does not start', async () => {
    expect(() => parseToolCall('read the file')).toThrow(/tool call as JSON/);
    expect(() => parseToolCall('{"arguments": {}}')).toThrow(/"name"/);
    const env = new McpEnvironment({ command: process.execPath, args: ['-e', 'console.error("no such server"); process.exit(3)'] });
    await expect(env.start()).rejects.toThrow(/Could not start the MCP server/);
  });
});

describe.skipIf(process.platform !== 'linux' || noBwrap !== '')(`an MCP server in the sandbox${noBwrap}`, () => {
  it('runs as the sandbox user, without network, seeing only the system, its code and what was shared', async () => {
    const shared = sharedFolder();
    writeFileSync(join(shared, 'note.txt'), 'shared with the server\n');
    const env = new McpEnvironment({ ...shellServer, args: [...shellServer.args, shared] });
    expect(env.sandbox).toMatch(/^bubblewrap: no network/);
    expect(env.sandbox).toContain(`read-write ${shared}`);
    try {
      await env.start();
      expect(text((await env.step(sh('id -un; cat /etc/hostname'))).observation)).toBe('agent\nsandbox\n');
      expect(text((await env.step(sh(`cat ${join(shared, 'note.txt')}; echo made > ${join(shared, 'made.txt')} && echo wrote`))).observation)).toBe('shared with the server\nwrote\n');
      expect(text((await env.step(sh(`ls ${tmpdir()}/wl-mcp-fs-* /root /opt 2>&1 | grep -c "No such file"`))).observation)).not.toBe('0\n');
      expect(text((await env.step(sh('echo x > package.json || echo read-only'))).observation)).toMatch(/read-only/);
      expect(text((await env.step(sh('bash -c "ulimit -u; ulimit -v"'))).observation)).toBe('256\n2097152\n');
      expect(text((await env.step(sh('bash -c "echo > /dev/tcp/1.1.1.1/53"'))).observation)).toMatch(/Network is unreachable/);
    } finally {
      await env.dispose();
    }
  }, 30_000);

  it('stops a session whose shared folder another recording removed and made again', async () => {
    // Two recordings on one fixed folder: the second empties it (rm + mkdir) while the first runs.
    const shared = sharedFolder();
    const env = new McpEnvironment(filesystemServer(shared));
    try {
      await env.start();
      expect((await env.step(call('write_file', { path: join(shared, 'a.txt'), content: 'hi' }))).observation).toContain('Successfully wrote');
      expect(text((await env.step(call('list_directory', { path: shared }))).observation)).toBe('[FILE] a.txt');
      rmSync(shared, { recursive: true });
      mkdirSync(shared, { mode: 0o777 });
      chmodSync(shared, 0o777);
      // Before: the server, its view of the old folder detached, answered "0 files" and ENOENT as if they were the session's state.
      await expect(env.step(call('list_directory_with_sizes', { path: shared }))).rejects.toThrow(/was removed or replaced by another program.*a folder of its own/);
    } finally {
      await env.dispose();
    }
  }, 30_000);

  it('keeps MEMORY_FILE_PATH in a shared folder, and says what to do when it names a place the server cannot see', async () => {
    const shared = sharedFolder();
    const env = new McpEnvironment(memoryAt(shared, join(shared, 'memory.jsonl')));
    try {
      await env.start();
      await env.step(call('create_entities', { entities: [{ name: 'Ada', entityType: 'person', observations: [] }] }));
      expect(readFileSync(join(shared, 'memory.jsonl'), 'utf8')).toContain('Ada');
    } finally {
      await env.dispose();
    }
    // A host folder that is not shared does not exist inside: the server would fail on its first write with a bare ENOENT.
    const hidden = new McpEnvironment({ ...memoryServer, env: { MEMORY_FILE_PATH: join(sharedFolder(), 'memory.jsonl') } });
    await expect(hidden.start()).rejects.toThrow(/MEMORY_FILE_PATH names .* cannot see.*inside a shared folder/);
  }, 30_000);

  it.skipIf(process.getuid?.() !== 0)('says how to share a private (0700) folder when the sandbox runs as nobody', async () => {
    const privateDir = mkdtempSync(join(tmpdir(), 'wl-mcp-private-'));
    const env = new McpEnvironment(filesystemServer(privateDir));
    await expect(env.start()).rejects.toThrow(new RegExp(`runs as nobody .*${privateDir} \\(mode 0700\\).*chmod o\\+rwx`));
  });

  it('refuses to share the whole system or home folder with a server', async () => {
    const env = new McpEnvironment({ ...shellServer, args: [...shellServer.args, '/'] });
    await expect(env.start()).rejects.toThrow(/not the whole system/);
  });
});
