// An agent (the MCP SDK's own Client) works through a task in a simulated terminal over
// Streamable HTTP, and in a simulated MCP server over stdio through the `worldloom mcp-serve`
// command; every call lands in the workspace as a node of the session's own branch, with the
// scheduled perturbations marked, and the studio is told as each one lands.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PROJECT_ROOT, RESOURCES_DIR } from '../testing/paths';
import { CLI_BIN } from '../testing/cli-bin';
import { perturbationCatalog } from '../common/perturbations/registry';
import type { Domain, NodeRecord } from '../common/trajectory/model';
import { fileHead, fileSource } from '../parsing/sources';
import { importTrajectories } from '../formats/import-trajectories';
import { Studio } from '../service/studio';
import { WorkspaceStore } from '../store/workspace-store';
import { recordedMcpTools } from '../common/trajectory/environment-tools';
import { startMcpHttp, type RunningMcpHttp } from './mcp-http';
import { perturbationAt } from '../agents/perturbation-schedule';
import { SimulatedEnvironment } from '../agents/simulated-environment';
import { startFakeVllm } from '../testing/fake-vllm-server';

const DEMO = join(RESOURCES_DIR, 'demo', 'demo-trajectories.jsonl');

type ToolResult = { content: { type: string; text?: string }[]; isError?: boolean; _meta?: Record<string, unknown> };
const text = (r: ToolResult) => r.content.map((c) => c.text ?? '').join('');
const nodeOf = (r: ToolResult) => r._meta?.['worldloom/nodeId'] as string;

/** Which steps of a session taking `actions` the schedule perturbs. */
function scheduled(kind: string, rate: number, seed: number, domain: Domain, actions: string[]): boolean[] {
  return actions.map((action, i) => perturbationAt({ kinds: [{ kindId: kind, rate }], seed, mode: 'transform' }, i, perturbationCatalog, { domain, action }) !== null);
}

function expectBranch(nodes: NodeRecord[], from: string, actions: string[], client: string) {
  expect(nodes.map((n) => n.action)).toEqual(actions);
  expect(nodes[0]!.parentId).toBe(from);
  nodes.slice(1).forEach((n, i) => expect(n.parentId).toBe(nodes[i]!.id));
  const session = nodes[0]!.provenance.agent?.session;
  expect(session).toBeTruthy();
  for (const n of nodes) {
    // The observation is the world model's: simulated, or perturbed where the schedule injected one.
    expect(n.origin).toBe(n.provenance.perturbations ? 'perturbed' : 'simulated');
    expect(n.provenance.agent).toMatchObject({ kind: 'mcp-client', name: client, session });
    expect(n.provenance.engine).toBe('onnx');
  }
}

describe('worldloom mcp-serve', () => {
  let dir: string;
  let workspace: string;
  let terminalId: string;
  let mcpId: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wl-mcp-serve-'));
    workspace = join(dir, 'agents.worldloom');
    const store = WorkspaceStore.create(workspace);
    importTrajectories(store, fileSource(DEMO), { head: fileHead(DEMO) });
    const list = store.listTrajectories();
    terminalId = list.find((t) => t.domain === 'terminal')!.id;
    mcpId = list.find((t) => t.domain === 'mcp')!.id;
    store.close();
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('a simulated terminal over Streamable HTTP', () => {
    let studio: Studio;
    let environment: SimulatedEnvironment;
    let http: RunningMcpHttp;
    const announced: NodeRecord[] = [];

    beforeAll(async () => {
      studio = new Studio({ door: 'cli', resourcesDir: RESOURCES_DIR });
      studio.openWorkspace(workspace, 'open');
      await studio.loadModel();
      studio.onEvent((event, payload) => {
        if (event === 'nodes.added') announced.push(...(payload as { nodes: NodeRecord[] }).nodes);
      });
      environment = new SimulatedEnvironment(studio, { trajectoryId: terminalId, perturb: 'terminal.command-not-found:0.5', seed: 3 });
      http = await startMcpHttp(environment, { token: 'secret-token' });
    }, 120_000);

    afterAll(async () => {
      await http?.close();
      await studio?.dispose();
    });

    const connect = async (name: string) => {
      const client = new Client({ name, version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(http.endpoint), { requestInit: { headers: { authorization: 'Bearer secret-token' } } }));
      return client;
    };

    it('lets an agent work through a task step by step, each call a node of its branch, perturbations where the seed puts them', async () => {
      const client = await connect('shell-agent');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['execute_command']);
      const task = ['mkdir notes', 'echo "buy milk" > notes/todo.txt', 'ls notes', 'cat notes/todo.txt', 'wc -l notes/todo.txt'];
      const results: ToolResult[] = [];
      for (const command of task) results.push((await client.callTool({ name: 'execute_command', arguments: { command } })) as ToolResult);
      await client.close();

      const store = studio.requireStore();
      const nodes = results.map((r) => store.getNode(nodeOf(r))!);
      expectBranch(nodes, environment.startNode.id, task, 'shell-agent');
      // What the agent read is what the workspace holds.
      results.forEach((r, i) => expect(text(r)).toBe(nodes[i]!.observation));
      const expected = scheduled('terminal.command-not-found', 0.5, 3, 'terminal', task);
      expect(expected).toContain(true);
      expect(expected).toContain(false);
      // `echo` is a shell builtin: whatever the seed draws there, it is never "not found".
      expect(expected[1]).toBe(false);
      expect(nodes[1]!.observation).not.toContain('echo: command not found');
      nodes.forEach((n, i) => {
        const record = n.provenance.perturbations?.[0] as { kind: string; mode: string } | undefined;
        expect(record?.kind ?? null).toBe(expected[i] ? 'terminal.command-not-found' : null);
        if (record) {
          expect(record.mode).toBe('transform');
          expect(n.observation).toContain('command not found');
        }
      });
      // The studio was told of every node as it landed, so an open tree grows with the session.
      expect(announced.map((n) => n.id)).toEqual(expect.arrayContaining(nodes.map((n) => n.id)));
    }, 180_000);

    it('gives each session its own branch from the same start', async () => {
      const a = await connect('agent-a');
      const b = await connect('agent-b');
      const ra = (await a.callTool({ name: 'execute_command', arguments: { command: 'pwd' } })) as ToolResult;
      const rb = (await b.callTool({ name: 'execute_command', arguments: { command: 'pwd' } })) as ToolResult;
      await Promise.all([a.close(), b.close()]);
      const store = studio.requireStore();
      const [na, nb] = [store.getNode(nodeOf(ra))!, store.getNode(nodeOf(rb))!];
      expect(na.id).not.toBe(nb.id);
      expect(na.parentId).toBe(environment.startNode.id);
      expect(nb.parentId).toBe(environment.startNode.id);
      expect(na.provenance.agent?.name).toBe('agent-a');
      expect(nb.provenance.agent?.name).toBe('agent-b');
      expect(na.provenance.agent?.session).not.toBe(nb.provenance.agent?.session);
    }, 120_000);

    it('plays an injected perturbation out through the world model in instruction mode', async () => {
      const instructed = new SimulatedEnvironment(studio, { trajectoryId: terminalId, perturb: 'terminal.disk-full:1', perturbMode: 'instruction', seed: 2 });
      const server = await startMcpHttp(instructed, { token: 'other-token' });
      try {
        const client = new Client({ name: 'instructed-agent', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(server.endpoint), { requestInit: { headers: { authorization: 'Bearer other-token' } } }));
        const r = (await client.callTool({ name: 'execute_command', arguments: { command: 'cp big.iso backup/' } })) as ToolResult;
        await client.close();
        const node = studio.requireStore().getNode(nodeOf(r))!;
        expect(node.provenance.perturbations?.[0]).toMatchObject({ kind: 'terminal.disk-full', mode: 'instruction' });
        // The model was told to play the condition out; the instruction is kept to show the exact prompt.
        expect(String(node.provenance.controlInstruction)).toContain('Simulation control');
        expect(r._meta?.['worldloom/perturbation']).toBe('terminal.disk-full');
      } finally {
        await server.close();
      }
    }, 120_000);

    it('refuses a client without the token, and a missing argument as a tool error', async () => {
      const bare = new Client({ name: 'no-token', version: '1' });
      await expect(bare.connect(new StreamableHTTPClientTransport(new URL(http.endpoint)))).rejects.toThrow();
      const res = await fetch(http.endpoint, { method: 'POST', headers: { authorization: 'Bearer nope', 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(401);
      // A web page's request carries its Origin: refused even with the token (MCP transport spec).
      const fromPage = await fetch(http.endpoint, { method: 'POST', headers: { authorization: 'Bearer secret-token', origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{}' });
      expect(fromPage.status).toBe(403);
      expect(((await fromPage.json()) as { error: { message: string } }).error.message).toMatch(/https:\/\/evil\.example are refused/);
      const client = await connect('sloppy-agent');
      const r = (await client.callTool({ name: 'execute_command', arguments: {} })) as ToolResult;
      expect(r.isError).toBe(true);
      expect(text(r)).toContain('command');
      await client.close();
    }, 60_000);
  });

  describe('sessions over HTTP', () => {
    it('serves several agent sessions at once, their simulations in flight together, each on its own branch', async () => {
      const server = await startFakeVllm({ firstChunkDelayMs: 150 });
      const studio = new Studio({ door: 'cli', resourcesDir: RESOURCES_DIR });
      studio.openWorkspace(workspace, 'open');
      await studio.loadModel({ kind: 'openai', baseUrl: server.url, concurrency: 8 });
      const environment = new SimulatedEnvironment(studio, { trajectoryId: terminalId, sampling: { maxTokens: 64 } });
      const http = await startMcpHttp(environment, { token: 't' });
      try {
        const clients = await Promise.all(['a', 'b', 'c', 'd'].map(async (name) => {
          const client = new Client({ name: `agent-${name}`, version: '1' });
          await client.connect(new StreamableHTTPClientTransport(new URL(http.endpoint), { requestInit: { headers: { authorization: 'Bearer t' } } }));
          return client;
        }));
        const results = await Promise.all(clients.map(async (client, i) => {
          const first = (await client.callTool({ name: 'execute_command', arguments: { command: `echo ${i}` } })) as ToolResult;
          const second = (await client.callTool({ name: 'execute_command', arguments: { command: `ls ${i}` } })) as ToolResult;
          return [first, second];
        }));
        await Promise.all(clients.map((c) => c.close()));
        expect(server.stats.maxActive).toBe(4);
        const store = studio.requireStore();
        results.forEach(([first, second], i) => {
          const [a, b] = [store.getNode(nodeOf(first!))!, store.getNode(nodeOf(second!))!];
          expect(a.parentId).toBe(environment.startNode.id);
          expect(b.parentId).toBe(a.id);
          expect(text(second!)).toContain(`output of ls ${i}`);
        });
      } finally {
        await http.close();
        await studio.dispose();
        await server.close();
      }
    }, 60_000);

    it('closes a session left idle, and the least recently used one past the cap', async () => {
      const studio = new Studio({ door: 'cli', resourcesDir: RESOURCES_DIR });
      studio.openWorkspace(workspace, 'open');
      const environment = new SimulatedEnvironment(studio, { trajectoryId: terminalId });
      const http = await startMcpHttp(environment, { token: 't', sessionIdleMs: 300, maxSessions: 2 });
      const connect = async () => {
        const client = new Client({ name: 'c', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(http.endpoint), { requestInit: { headers: { authorization: 'Bearer t' } } }));
        return client;
      };
      try {
        const first = await connect();
        await connect();
        await connect();
        // The third session closed the first (least recently used).
        await expect(first.listTools()).rejects.toThrow();
        const idle = await connect();
        await expect(idle.listTools()).resolves.toBeTruthy();
        // Each try is a use that keeps the session alive for 300 ms more, so the tries are spaced
        // wider than that: the session closes between two of them.
        await vi.waitFor(() => expect(idle.listTools()).rejects.toThrow(), { timeout: 20_000, interval: 700 });
      } finally {
        await http.close();
        await studio.dispose();
      }
    }, 60_000);
  });

  it('serves a recorded MCP server over stdio: its own tools, each call simulated and recorded', async () => {
    const store = WorkspaceStore.open(workspace);
    const trajectory = store.getTrajectory(mcpId)!;
    store.close();
    const recorded = recordedMcpTools(trajectory.systemPrompt)!;
    expect(recorded.length).toBeGreaterThan(3);

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, 'mcp-serve', '--workspace', workspace, '--trajectory', mcpId, '--perturb', 'mcp.tool-error:0.5', '--seed', '1'],
      cwd: PROJECT_ROOT,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'memory-agent', version: '2.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    // The server lists the recorded tools as the real server listed them, schemas included.
    expect(tools.map((t) => t.name)).toEqual(recorded.map((t) => t.name));
    expect(tools[0]!.inputSchema).toEqual(recorded[0]!.inputSchema);

    const calls = [
      { name: 'create_entities', arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['writes programs'] }] } },
      { name: 'add_observations', arguments: { observations: [{ entityName: 'Ada', contents: ['likes tea'] }] } },
      { name: 'open_nodes', arguments: { names: ['Ada'] } },
      { name: 'read_graph', arguments: {} },
    ];
    const results: ToolResult[] = [];
    for (const call of calls) results.push((await client.callTool(call)) as ToolResult);
    await client.close();
    expect(stderr).toContain('create_entities');

    const after = WorkspaceStore.open(workspace);
    const nodes = results.map((r) => after.getNode(nodeOf(r))!);
    const root = after.getNodes(mcpId).find((n) => n.parentId === null)!;
    after.close();
    expectBranch(nodes, root.id, calls.map((c) => JSON.stringify(c)), 'memory-agent');
    const expected = scheduled('mcp.tool-error', 0.5, 1, 'mcp', calls.map((c) => JSON.stringify(c)));
    expect(expected).toContain(true);
    nodes.forEach((n, i) => {
      expect(n.provenance.perturbations !== undefined).toBe(expected[i]);
      // A perturbed call comes back to the agent as the failed tool result it stands for.
      if (expected[i]) expect(results[i]!.isError).toBe(true);
    });
  }, 180_000);
  it('serves a recorded MCP server over Streamable HTTP from the command line, behind its token', async () => {
    const proc = spawn(process.execPath, [CLI_BIN, 'mcp-serve', '--workspace', workspace, '--trajectory', mcpId, '--http', '0', '--token', 'cli-token'], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const endpoint = await new Promise<string>((resolve, reject) => {
        let out = '';
        proc.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const line = out.split('\n').find((l) => l.startsWith('{'));
          if (line) resolve((JSON.parse(line) as { endpoint: string }).endpoint);
        });
        proc.once('exit', (code) => reject(new Error(`mcp-serve exited (${code})`)));
      });
      const client = new Client({ name: 'http-agent', version: '0.3.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { authorization: 'Bearer cli-token' } } }));
      const first = (await client.callTool({ name: 'read_graph', arguments: {} })) as ToolResult;
      const second = (await client.callTool({ name: 'search_nodes', arguments: { query: 'tea' } })) as ToolResult;
      await client.close();
      const store = WorkspaceStore.open(workspace);
      const nodes = [store.getNode(nodeOf(first))!, store.getNode(nodeOf(second))!];
      store.close();
      expect(nodes[1]!.parentId).toBe(nodes[0]!.id);
      expect(nodes.map((n) => n.provenance.agent?.name)).toEqual(['http-agent', 'http-agent']);
      expect(nodes[0]!.action).toBe('{"name":"read_graph","arguments":{}}');
    } finally {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
    }
  }, 180_000);
});
