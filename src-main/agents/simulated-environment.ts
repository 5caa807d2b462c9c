// A trajectory's environment served to agents over MCP (`worldloom mcp-serve`). Every tool
// call is simulated by the loaded world model from the branch the calling session has
// reached, and stored as a node (origin `simulated`, or `perturbed` where the schedule
// injected a perturbation, which provenance.perturbations holds; provenance.agent names the
// client, from its initialize request, and the session). Each session starts at the same node and grows its own branch.
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isObject } from '../common/json-values';
import type { SamplingOverrides } from '../common/contract/simulation';
import type { PerturbationRegistry } from '../common/perturbations/registry';
import { deriveSeed } from '../common/perturbations/rng';
import type { NodeRecord, TrajectoryRecord } from '../common/trajectory/model';
import { UserError } from '../common/user-error';
import { workspaceRegistry } from '../simulation/workspace-perturbations';
import type { Simulator } from '../simulation/simulator';
import type { WorkspaceStore } from '../store/workspace-store';
import { simulateAgentStep } from './agent-step';
import { environmentTools, type EnvironmentTools } from '../common/trajectory/environment-tools';
import { parsePerturbationSchedule, perturbationAt, type PerturbationSchedule } from './perturbation-schedule';

export interface SimulatedEnvironmentOptions {
  trajectoryId: string;
  /** Where every session starts; default the initial state (the root), a fresh episode. */
  nodeId?: string;
  /** `KIND:RATE,…`; empty for none. */
  perturb?: string;
  perturbMode?: 'transform' | 'instruction';
  seed?: number;
  sampling?: SamplingOverrides;
}

/** What a session did, for logs and tests. */
export interface AgentCall {
  session: string;
  tool: string;
  action: string;
  node: NodeRecord | null;
  error?: string;
}

/** What the environment needs of the core that serves it (the Studio): its simulator, its job runner and the open workspace. */
export interface EnvironmentCore {
  readonly version: string;
  readonly simulator: Simulator;
  requireStore(): WorkspaceStore;
  readonly jobs: { start<T>(kind: 'simulate', label: string, work: (job: { readonly signal: AbortSignal }) => Promise<T>): Promise<T> };
}

export class SimulatedEnvironment {
  readonly trajectory: TrajectoryRecord;
  readonly startNode: NodeRecord;
  readonly tools: EnvironmentTools;
  private readonly registry: PerturbationRegistry;
  private readonly schedule: PerturbationSchedule;
  private sessions = 0;
  private readonly listeners = new Set<(call: AgentCall) => void>();

  constructor(
    private readonly studio: EnvironmentCore,
    private readonly options: SimulatedEnvironmentOptions,
  ) {
    const store = studio.requireStore();
    const trajectory = store.getTrajectory(options.trajectoryId);
    if (!trajectory) {
      const known = store.listTrajectories();
      const listed = known.slice(0, 20).map((t) => `  ${t.id}  ${t.domain}  ${t.title}`).join('\n');
      throw new UserError(`Trajectory ${options.trajectoryId} is not in this workspace. Its trajectories${known.length > 20 ? ` (the first 20 of ${known.length})` : ''}:\n${listed || '  (none)'}`, 'not-found');
    }
    this.trajectory = trajectory;
    const nodes = store.getNodes(trajectory.id);
    const start = options.nodeId ? store.getNode(options.nodeId) : nodes.find((n) => n.parentId === null);
    if (!start || start.trajectoryId !== trajectory.id) throw new UserError(`Node ${options.nodeId} is not in trajectory ${trajectory.id}.`, 'not-found');
    this.startNode = start;
    this.tools = environmentTools(trajectory, nodes.find((n) => n.parentId !== null)?.action ?? null);
    this.registry = workspaceRegistry(store);
    this.schedule = {
      kinds: options.perturb ? parsePerturbationSchedule(options.perturb, trajectory.domain, this.registry) : [],
      seed: options.seed ?? 0,
      mode: options.perturbMode ?? 'transform',
    };
  }

  onCall(listener: (call: AgentCall) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * An MCP server for one agent session. The tools are listed and called through the SDK's
   * request handlers rather than `registerTool`, because a recorded server's tools must be
   * listed with their own JSON schemas, exactly as that server listed them.
   */
  createServer(sessionId: string = randomUUID()): McpServer {
    const ordinal = this.sessions++;
    // Each session draws its perturbations from its own seed, so one session's steps do not move another's.
    const schedule = { ...this.schedule, seed: ordinal === 0 ? this.schedule.seed : deriveSeed(this.schedule.seed, `session ${ordinal}`) };
    const mcp = new McpServer(
      { name: `worldloom-simulated-${this.trajectory.domain}`, version: this.studio.version },
      {
        capabilities: { tools: {} },
        instructions:
          `A simulated ${this.trajectory.domain} environment (Worldloom trajectory "${this.trajectory.title}"). ` +
          'Every tool result is predicted by a world model, not run for real.',
      },
    );
    let cursor = this.startNode.id;
    let step = 0;
    let queue: Promise<unknown> = Promise.resolve();
    mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: this.tools.tools.map((t) => ({ ...t.extra, name: t.name, description: t.description, inputSchema: t.inputSchema as { type: 'object' } })),
    }));
    mcp.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      // One call at a time per session: each one continues the branch the previous one reached.
      const run = queue.then(async (): Promise<CallToolResult> => {
        const tool = this.tools.tools.find((t) => t.name === request.params.name);
        if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}. Tools: ${this.tools.tools.map((t) => t.name).join(', ')}.`);
        const args = (request.params.arguments ?? {}) as Record<string, unknown>;
        const missing = this.tools.source === 'natural' ? requiredMissing(tool.inputSchema, args) : [];
        if (missing.length > 0) return errorResult(`${tool.name} needs ${missing.join(', ')}.`);
        const action = this.tools.actionFor(tool.name, args);
        const client = mcp.server.getClientVersion();
        const perturbation = perturbationAt(schedule, step, this.registry, { domain: this.trajectory.domain, action });
        try {
          const result = await this.studio.jobs.start('simulate', `Agent ${client?.name ?? 'MCP client'}: ${tool.name}`, (job) =>
            simulateAgentStep(
              this.studio.simulator,
              {
                nodeId: cursor,
                action,
                agent: { kind: 'mcp-client', ...(client?.name ? { name: client.name } : {}), session: sessionId, ...(client?.version ? { model: `${client.name} ${client.version}` } : {}) },
                origin: perturbation ? 'perturbed' : 'simulated',
                sampling: this.options.sampling,
                perturbation,
                registry: this.registry,
              },
              undefined,
              // The client cancelling its request stops the simulation as the studio's Cancel does.
              AbortSignal.any([job.signal, extra.signal]),
            ),
          );
          const node = result.nodes[0];
          if (!node) {
            const why = result.cancelled ? 'the simulation was cancelled' : (result.incomplete[0]?.message ?? 'the world model wrote no observation');
            this.tell({ session: sessionId, tool: tool.name, action, node: null, error: why });
            return errorResult(`The simulated environment could not answer: ${why}. Nothing was recorded; call the tool again.`);
          }
          cursor = node.id;
          step++;
          this.tell({ session: sessionId, tool: tool.name, action, node });
          return this.toolResult(node, perturbation?.kind ?? null);
        } catch (err) {
          if (err instanceof McpError) throw err;
          const message = err instanceof Error ? err.message : String(err);
          this.tell({ session: sessionId, tool: tool.name, action, node: null, error: message });
          return errorResult(`The simulated environment failed: ${message}`);
        }
      });
      queue = run.catch(() => undefined);
      return run;
    });
    return mcp;
  }

  private tell(call: AgentCall): void {
    for (const l of this.listeners) l(call);
  }

  /** A recorded MCP server's result comes back as the result it stands for; other domains' observations as text. */
  private toolResult(node: NodeRecord, perturbation: string | null): CallToolResult {
    const meta = { 'worldloom/nodeId': node.id, ...(perturbation ? { 'worldloom/perturbation': perturbation } : {}) };
    if (this.tools.source === 'recorded') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(node.observation);
      } catch {
        parsed = undefined;
      }
      if (isObject(parsed) && Array.isArray(parsed.content)) return { ...parsed, _meta: meta } as unknown as CallToolResult;
      // A JSON-RPC error object: the server refused the request itself.
      if (isObject(parsed) && typeof parsed.code === 'number' && typeof parsed.message === 'string') {
        throw new McpError(parsed.code, parsed.message, parsed.data);
      }
    }
    return { content: [{ type: 'text', text: node.observation }], _meta: meta };
  }
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function requiredMissing(schema: Record<string, unknown>, args: Record<string, unknown>): string[] {
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return required.filter((key) => typeof args[key] !== 'string' || args[key] === '');
}

