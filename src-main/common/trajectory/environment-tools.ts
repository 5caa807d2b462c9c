// The tools an agent sees when a trajectory's environment is served over MCP. An MCP
// trajectory serves the tools its server listed (recorded in its environment description,
// "Tools (from tools/list):" followed by the JSON list, as the MCP recorder and the MCP log
// importer write it; Qwen-style `<tools>` blocks too). Other domains serve their natural
// tools, each call written as an action the way that domain's trajectories write them.
import { closingBracket, isObject } from '../json-values';
import type { Domain, TrajectoryRecord } from './model';

export interface EnvironmentTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments, as tools/list shows it. */
  inputSchema: Record<string, unknown>;
  /** Other fields the recorded tools/list carried (title, annotations): served as recorded. */
  extra?: Record<string, unknown>;
}

export interface EnvironmentTools {
  tools: EnvironmentTool[];
  /** The action text of a call, in the trajectory's own action language. */
  actionFor(name: string, args: Record<string, unknown>): string;
  /** `recorded`: the MCP server's own tools/list; `natural`: the domain's tools. */
  source: 'recorded' | 'natural';
}

const TOOLS_MARKER = 'Tools (from tools/list):';

const string = (description: string) => ({ type: 'string', description });
const object = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });

/** The tools recorded in an MCP trajectory's environment description, or null when it keeps none. */
export function recordedMcpTools(systemPrompt: string): EnvironmentTool[] | null {
  const at = systemPrompt.indexOf(TOOLS_MARKER);
  if (at >= 0) {
    const listed = leadingJsonValues(systemPrompt.slice(at + TOOLS_MARKER.length))[0];
    if (Array.isArray(listed)) return listed.flatMap(toolOfDefinition);
  }
  // AgentWorldBench's MCP prompt lists the tools after "You can simulate the following tools:".
  const awb = /following tools:/i.exec(systemPrompt);
  if (awb) {
    const tools = leadingJsonValues(systemPrompt.slice(awb.index + awb[0].length)).flatMap((v) => (Array.isArray(v) ? v : [v])).flatMap(toolOfDefinition);
    if (tools.length > 0) return tools;
  }
  // Qwen-family chat templates list tools as one JSON object per line inside <tools>…</tools>.
  const block = /<tools>([\s\S]*?)<\/tools>/.exec(systemPrompt);
  if (block) {
    const tools: EnvironmentTool[] = [];
    for (const line of block[1]!.split('\n')) tools.push(...toolOfDefinition(tryJson(line.trim())));
    if (tools.length > 0) return tools;
  }
  return null;
}

/** A tool definition in any of the shapes prompts use: MCP ({name, inputSchema}), OpenAI ({type: "function", function: {name, parameters}}), Anthropic ({name, input_schema}). */
function toolOfDefinition(value: unknown): EnvironmentTool[] {
  const fn = isObject(value) && isObject(value.function) ? value.function : value;
  if (!isObject(fn) || typeof fn.name !== 'string') return [];
  const { input_schema: inputSchemaSnake, ...rest } = fn;
  return [fromListedTool({ ...rest, inputSchema: fn.inputSchema ?? fn.parameters ?? inputSchemaSnake })];
}

/** The JSON values (objects or arrays) the text starts with, one after another, separated by blank space or commas. */
function leadingJsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let at = 0;
  for (;;) {
    while (at < text.length && /[\s,]/.test(text[at]!)) at++;
    if (text[at] !== '{' && text[at] !== '[') return values;
    const end = closingBracket(text, at);
    if (end < 0) return values;
    const value = tryJson(text.slice(at, end + 1));
    if (value === undefined) return values;
    values.push(value);
    at = end + 1;
  }
}

function fromListedTool(t: Record<string, unknown>): EnvironmentTool {
  // The output schema is left out: a predicted result's structuredContent may not match it, and
  // clients that check (the SDK's does) would then refuse the result instead of showing it.
  const { name, description, inputSchema, parameters: _parameters, outputSchema: _outputSchema, ...extra } = t;
  const schema = isObject(inputSchema) ? inputSchema : { type: 'object', properties: {} };
  return { name: String(name), description: typeof description === 'string' ? description : '', inputSchema: { type: 'object', ...schema }, extra };
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const COMMAND_TOOL: EnvironmentTool = {
  name: 'execute_command',
  description: 'Run one command line in the terminal and return what the screen shows after it, ending with the next prompt.',
  inputSchema: object({ command: string('The command line, as typed at the prompt.') }, ['command']),
};

const WEB_TOOLS: EnvironmentTool[] = [
  { name: 'navigate', description: 'Open a URL. Returns the page as an accessibility snapshot whose [ref=eN] labels name its elements.', inputSchema: object({ url: string('http://, https:// or file: URL') }, ['url']) },
  { name: 'click', description: 'Click the element with this reference from the last snapshot. Returns the page after the click.', inputSchema: object({ ref: string('Element reference, e.g. e12') }, ['ref']) },
  { name: 'type', description: 'Type text into the element with this reference. Returns the page after typing.', inputSchema: object({ ref: string('Element reference, e.g. e12'), text: string('The text to type') }, ['ref', 'text']) },
  { name: 'press', description: 'Press a key, such as Enter or Tab.', inputSchema: object({ key: string('Key name') }, ['key']) },
  { name: 'scroll', description: 'Scroll the page up or down.', inputSchema: object({ direction: { type: 'string', enum: ['up', 'down'] }, pixels: { type: 'number' } }, ['direction']) },
  { name: 'back', description: 'Go back to the previous page.', inputSchema: object({}, []) },
];

function actTool(domain: Domain, example: string | null): EnvironmentTool {
  return {
    name: 'act',
    description:
      `Take one action in this ${domain} environment and return what the environment shows next. ` +
      `Write the action as this environment's actions are written${example ? `, for example: ${example.slice(0, 300)}` : ''}.`,
    inputSchema: object({ action: string('The action') }, ['action']),
  };
}

/** The tools served for a trajectory; `exampleAction` is one of its recorded actions, shown in the generic tool's description. */
export function environmentTools(trajectory: TrajectoryRecord, exampleAction: string | null = null): EnvironmentTools {
  if (trajectory.domain === 'mcp') {
    const recorded = recordedMcpTools(trajectory.systemPrompt);
    if (recorded && recorded.length > 0) {
      return { tools: recorded, source: 'recorded', actionFor: (name, args) => JSON.stringify({ name, arguments: args }) };
    }
  }
  if (trajectory.domain === 'terminal' || trajectory.domain === 'swe') {
    return { tools: [COMMAND_TOOL], source: 'natural', actionFor: (_name, args) => String(args.command ?? '') };
  }
  if (trajectory.domain === 'web') return { tools: WEB_TOOLS, source: 'natural', actionFor: actionForToolCall };
  return { tools: [actTool(trajectory.domain, exampleAction)], source: 'natural', actionFor: (_name, args) => String(args.action ?? '') };
}

/**
 * The action a call of a natural tool stands for, as the domain's trajectories write actions:
 * the command for `execute_command`, the text for `act`, the web recorder's action line for a
 * browser tool (`goto URL`, `click REF`, `type REF "TEXT"`, …); any other call as its JSON.
 * mcp-serve turns an agent's call into the action it simulates with it, and agent datasets read
 * a call back into the action it was written from.
 */
export function actionForToolCall(name: string, args: Record<string, unknown>): string {
  const text = (key: string) => String(args[key] ?? '');
  switch (name) {
    case 'execute_command':
      return text('command');
    case 'act':
      return text('action');
    case 'navigate':
      return `goto ${text('url')}`;
    case 'click':
      return `click ${text('ref')}`;
    case 'type':
      return `type ${text('ref')} ${JSON.stringify(text('text'))}`;
    case 'press':
      return `press ${text('key')}`;
    case 'scroll':
      return `scroll ${text('direction') || 'down'}${typeof args.pixels === 'number' ? ` ${args.pixels}` : ''}`;
    case 'back':
      return 'back';
    default:
      return JSON.stringify({ name, arguments: args });
  }
}
