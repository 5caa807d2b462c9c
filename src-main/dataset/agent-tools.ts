// An agent example's tools and each action as a call of one of them. The tools are the ones
// the agent had: an MCP trajectory's recorded tools/list, else the domain's natural tools
// (the same ones `worldloom mcp-serve` offers for the trajectory); each action is read back
// into a call of one of those tools. Pure.
import { actionForToolCall, environmentTools, type EnvironmentTool } from '../common/trajectory/environment-tools';
import { isObject } from '../common/json-values';
import type { Domain, TrajectoryRecord } from '../common/trajectory/model';
import type { ToolCall, ToolSchema } from './example';

export interface AgentToolbox {
  tools: ToolSchema[];
  /** Where the tools come from, for the dataset card. */
  source: 'recorded' | 'natural' | 'calls';
  /** The action as a call of one of the tools. */
  callFor(action: string): ToolCall;
}

const schemaOf = (t: EnvironmentTool): ToolSchema => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } });

/** An MCP action as the importers and the recorder write it: `{"name", "arguments"}`. */
function mcpCall(action: string): ToolCall | null {
  try {
    const parsed: unknown = JSON.parse(action);
    if (isObject(parsed) && typeof parsed.name === 'string') return { name: parsed.name, arguments: isObject(parsed.arguments) ? parsed.arguments : {} };
  } catch {
    // Not a recorded call: the caller falls back to the generic tool.
  }
  return null;
}

/** A web recorder action line (`goto URL`, `click REF`, `type REF "TEXT"`, `press KEY`, `scroll DIR [PX]`, `back`). */
function webCall(action: string): ToolCall | null {
  const m = /^(goto|click|type|press|scroll|back)\b[ \t]*([\s\S]*)$/.exec(action.trim());
  if (!m) return null;
  const [, verb, rest] = m as unknown as [string, string, string];
  switch (verb) {
    case 'goto':
      return rest ? { name: 'navigate', arguments: { url: rest } } : null;
    case 'click':
      return rest ? { name: 'click', arguments: { ref: rest } } : null;
    case 'press':
      return rest ? { name: 'press', arguments: { key: rest } } : null;
    case 'back':
      return rest === '' ? { name: 'back', arguments: {} } : null;
    case 'scroll': {
      const s = /^(up|down)(?:\s+(\d+))?$/.exec(rest);
      return s ? { name: 'scroll', arguments: { direction: s[1], ...(s[2] ? { pixels: Number(s[2]) } : {}) } } : null;
    }
    default: {
      const t = /^(\S+)\s+("(?:[^"\\]|\\.)*")$/.exec(rest);
      if (!t) return null;
      try {
        return { name: 'type', arguments: { ref: t[1], text: JSON.parse(t[2]!) as string } };
      } catch {
        return null;
      }
    }
  }
}

function genericToolbox(domain: Domain): AgentToolbox {
  const tool: ToolSchema = {
    type: 'function',
    function: {
      name: 'act',
      description: `Take one action in this ${domain} environment and return what the environment shows next.`,
      parameters: { type: 'object', properties: { action: { type: 'string', description: 'The action, written as this environment takes it' } }, required: ['action'] },
    },
  };
  return { tools: [tool], source: 'natural', callFor: (action) => ({ name: 'act', arguments: { action } }) };
}

/** The tools for one trajectory whose actions are `actions`; every action maps to a call of one of them. */
export function agentToolbox(trajectory: TrajectoryRecord, actions: readonly string[]): AgentToolbox {
  const env = environmentTools(trajectory, actions[0] ?? null);
  if (trajectory.domain === 'mcp') {
    const calls = actions.map(mcpCall);
    if (calls.every((c) => c !== null)) {
      const byName = new Map(calls.map((c) => [c!.name, c!]));
      if (env.source === 'recorded' && [...byName.keys()].every((name) => env.tools.some((t) => t.name === name))) {
        return { tools: env.tools.map(schemaOf), source: 'recorded', callFor: (action) => mcpCall(action)! };
      }
      // No tools/list was recorded: the tools are the ones the calls name, their arguments unconstrained.
      const tools: ToolSchema[] = [...byName.keys()].sort().map((name) => ({ type: 'function', function: { name, description: '', parameters: { type: 'object', properties: {} } } }));
      return { tools, source: 'calls', callFor: (action) => mcpCall(action)! };
    }
    return genericToolbox(trajectory.domain);
  }
  if (trajectory.domain === 'terminal' || trajectory.domain === 'swe') {
    return { tools: env.tools.map(schemaOf), source: 'natural', callFor: (action) => ({ name: env.tools[0]!.name, arguments: { command: action } }) };
  }
  if (trajectory.domain === 'web' && actions.every((a) => webCall(a) !== null)) {
    return { tools: env.tools.map(schemaOf), source: 'natural', callFor: (action) => webCall(action)! };
  }
  return genericToolbox(trajectory.domain);
}

/** The action a call stands for, in the layout the builders write actions (the inverse of callFor). */
export function actionOfCall(call: ToolCall): string {
  return actionForToolCall(call.name, call.arguments);
}
