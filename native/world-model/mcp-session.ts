// Talks to the official MCP reference servers (filesystem, memory) over stdio through the
// MCP SDK, the way an agent's client does, and records each call's outcome as the
// observation: the tool result as the client receives it (isError results included), or
// the JSON-RPC error for requests the server rejects. The filesystem server's temporary
// root is written as /workspace in actions and observations (see SHOWN_ROOT).
import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { SHOWN_ROOT, type McpCall, type McpServerName } from './mcp-actions';
import type { RecordedStep } from './paths';

const require = createRequire(import.meta.url);
const SERVER_ENTRY: Record<McpServerName, string> = {
  filesystem: require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'),
  memory: require.resolve('@modelcontextprotocol/server-memory/dist/index.js'),
};

/** One server process reused across trajectories; `reset` empties its world between them. */
export class McpRecorder {
  private constructor(
    private readonly client: Client,
    private readonly root: string,
    readonly toolsList: string,
  ) {}

  static async start(server: McpServerName): Promise<McpRecorder> {
    const root = realpathSync(mkdtempSync(join(tmpdir(), `worldloom-mcp-${server}-`)));
    const args = server === 'filesystem' ? [SERVER_ENTRY.filesystem, root] : [SERVER_ENTRY.memory];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      cwd: root,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', MEMORY_FILE_PATH: join(root, 'memory.jsonl') },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'worldloom-recorder', version: '0.1.0' });
    await client.connect(transport);
    const tools = await client.listTools();
    const recorder = new McpRecorder(client, root, '');
    return Object.assign(recorder, { toolsList: recorder.shown(JSON.stringify(tools, null, 2)) });
  }

  /** An empty directory (filesystem) or an empty knowledge graph (memory). */
  reset(): void {
    for (const entry of readdirSync(this.root)) rmSync(join(this.root, entry), { recursive: true, force: true });
  }

  async run(call: McpCall): Promise<RecordedStep> {
    const action = JSON.stringify('name' in call ? { name: call.name, arguments: call.arguments } : { method: call.method, params: call.params });
    const real = JSON.parse(JSON.stringify(call).split(SHOWN_ROOT).join(this.root)) as McpCall;
    let value: unknown;
    try {
      value = 'name' in real
        ? await this.client.callTool({ name: real.name, arguments: real.arguments })
        : await this.client.request({ method: real.method, params: real.params }, ResultSchema);
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      // What the server sent back as the JSON-RPC error object.
      value = error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data };
    }
    return { action, observation: this.shown(JSON.stringify(value, null, 2)) };
  }

  async close(): Promise<void> {
    await this.client.close();
    rmSync(this.root, { recursive: true, force: true });
  }

  private shown(text: string): string {
    return text.split(this.root).join(SHOWN_ROOT);
  }
}
