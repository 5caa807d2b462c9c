// ATIF trajectory.json (Agent Trajectory Interchange Format; Terminal-Bench 2 / Harbor):
// agent steps carry tool calls and, in the same step, the observation results that answer
// them (matched by source_call_id). Each answered call is a turn. Terminal tools (Harbor's
// Terminus sends keystrokes) give the command text as the action; any other tool gives
// the call as JSON {"name","arguments"} (./tool-call.ts). reasoning_content becomes the
// node's reasoning. The domain is terminal unless the tools say otherwise.
import { z } from 'zod';
import type { Domain } from '../common/trajectory/model';
import { chainBundle, type StepDraft } from '../common/trajectory/build';
import type { ImportItem, ImportSource, TrajectoryImporter, FormatEntry } from './format';
import { contentKey } from './content-key';
import { contentText, parseJsonDocument, zodProblem } from './json-document';
import { parseBoundedJson } from './json-limits';
import { toolCallAction } from './tool-call';

const FORMAT = 'atif';

const ToolCall = z.looseObject({ tool_call_id: z.string(), function_name: z.string(), arguments: z.unknown() });
const Result = z.looseObject({ source_call_id: z.string().nullable().optional(), content: z.unknown() });
const Step = z.looseObject({
  step_id: z.union([z.number(), z.string()]).optional(),
  source: z.enum(['system', 'user', 'agent']),
  message: z.unknown().optional(),
  reasoning_content: z.string().nullable().optional(),
  tool_calls: z.array(ToolCall).nullable().optional(),
  observation: z.looseObject({ results: z.array(Result) }).nullable().optional(),
});
const Doc = z.looseObject({
  schema_version: z.string().startsWith('ATIF', 'schema_version must name an ATIF version'),
  session_id: z.string().optional(),
  agent: z.looseObject({ name: z.string(), version: z.string().optional(), model_name: z.string().nullable().optional() }).optional(),
  steps: z.array(z.unknown()),
});
type ToolCall = z.infer<typeof ToolCall>;

type ToolKind = 'terminal' | 'swe' | 'web' | 'search' | 'other';
const COMMAND_FIELDS = ['keystrokes', 'command', 'cmd', 'keys', 'script', 'input'] as const;

function argsObject(args: unknown): Record<string, unknown> | undefined {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = parseBoundedJson(value);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function toolKind(call: ToolCall): ToolKind {
  const name = call.function_name;
  if (/str_replace|edit_file|apply_patch|create_file|view_file|write_file|file_editor/i.test(name)) return 'swe';
  if (/browser|navigate|click|goto|playwright|page_/i.test(name)) return 'web';
  if (/search|google|bing|retriev/i.test(name) && !/file|dir|grep/i.test(name)) return 'search';
  if (/bash|shell|terminal|tmux|keystroke|send_keys|exec|run_command|^run$|^sh$|^cmd$/i.test(name)) return 'terminal';
  const args = argsObject(call.arguments);
  return args && COMMAND_FIELDS.some((f) => typeof args[f] === 'string') ? 'terminal' : 'other';
}

/** The action text: what was typed for a terminal tool (its final Enter dropped), else the call as JSON. */
export function actionOf(call: ToolCall): string {
  const args = argsObject(call.arguments);
  if (toolKind(call) === 'terminal' && args) {
    const field = COMMAND_FIELDS.find((f) => typeof args[f] === 'string');
    if (field) return (args[field] as string).replace(/\r?\n$/, '');
  }
  return toolCallAction(call.function_name, args ?? call.arguments);
}

function domainOf(kinds: readonly ToolKind[]): Domain {
  if (kinds.includes('swe')) return 'swe';
  if (kinds.includes('terminal') || kinds.length === 0) return 'terminal';
  if (kinds.includes('web')) return 'web';
  if (kinds.includes('search')) return 'search';
  return 'mcp';
}

export const atifImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'ATIF trajectory.json (Terminal-Bench 2 / Harbor)',
  detect(name, head) {
    if (/"schema_version"\s*:\s*"ATIF-/.test(head)) return 0.98;
    return /(^|[\\/])trajectory\.json$/i.test(name) && head.includes('"steps"') ? 0.5 : 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const text = source.text();
    const doc = parseJsonDocument(text);
    if ('problem' in doc) {
      yield doc.problem;
      return;
    }
    const parsed = Doc.safeParse(doc.value);
    if (!parsed.success) {
      yield zodProblem(parsed.error);
      return;
    }
    const atif = parsed.data;
    const steps: StepDraft[] = [];
    const kinds: ToolKind[] = [];
    let task: string | undefined;
    for (const [i, raw] of atif.steps.entries()) {
      const at = ['steps', i] as const;
      const step = Step.safeParse(raw);
      if (!step.success) {
        yield zodProblem(step.error, at);
        continue;
      }
      const s = step.data;
      if (s.source === 'user' && task === undefined) task = contentText(s.message);
      if (s.source !== 'agent') continue;
      const calls = s.tool_calls ?? [];
      const results = s.observation?.results ?? [];
      const byCall = new Map<string, string[]>();
      const stepLevel: string[] = [];
      const strayResults: ImportItem[] = [];
      results.forEach((r, j) => {
        const content = contentText(r.content);
        if (r.source_call_id === null || r.source_call_id === undefined) stepLevel.push(content);
        else if (calls.some((c) => c.tool_call_id === r.source_call_id)) byCall.set(r.source_call_id, [...(byCall.get(r.source_call_id) ?? []), content]);
        else strayResults.push({ kind: 'problem', line: null, field: [...at, 'observation', 'results', j, 'source_call_id'].join('.'), reason: `result for ${r.source_call_id}, which is not a tool call of this step` });
      });
      yield* strayResults;
      let reasoning = s.reasoning_content?.trim() || contentText(s.message).trim() || null;
      const provenance = { source: { format: FORMAT, file: source.name }, stepId: s.step_id ?? i };
      const push = (action: string, observation: string) => {
        steps.push({ action, observation, reasoning, origin: 'real', provenance });
        reasoning = null; // the step's reasoning goes with its first turn only
      };
      const unanswered: ToolCall[] = [];
      calls.forEach((call) => {
        kinds.push(toolKind(call));
        const answer = byCall.get(call.tool_call_id);
        if (answer) push(actionOf(call), answer.join('\n'));
        else unanswered.push(call);
      });
      if (unanswered.length && stepLevel.length) {
        // Results without a source_call_id answer the step as a whole (e.g. the terminal
        // screen after all its keystrokes): the calls they follow form one turn.
        push(unanswered.map(actionOf).join('\n'), stepLevel.join('\n'));
      } else if (unanswered.length) {
        for (const call of unanswered) {
          const j = calls.indexOf(call);
          yield { kind: 'problem', line: null, field: [...at, 'tool_calls', j].join('.'), reason: `tool call ${call.tool_call_id} (${call.function_name}) has no observation result` };
        }
      } else if (stepLevel.length) {
        yield { kind: 'problem', line: null, field: [...at, 'observation'].join('.'), reason: 'observation results without a tool call to answer' };
      }
    }
    if (steps.length === 0) {
      yield { kind: 'problem', line: null, field: 'steps', reason: 'no agent tool call with an observation: nothing to import' };
      return;
    }
    const domain = domainOf(kinds);
    const agent = atif.agent ? `${atif.agent.name}${atif.agent.version ? ` ${atif.agent.version}` : ''}` : 'an agent';
    yield {
      kind: 'trajectory',
      bundle: chainBundle(
        {
          title: `${atif.agent?.name ?? source.name} · ${atif.session_id ?? source.name}`,
          domain,
          systemPrompt:
            domain === 'terminal'
              ? `Terminal environment of an agent task (recorded as ATIF by ${agent}): a Linux shell in a container. ` +
                'Each action is the keystrokes sent to the terminal; each observation is the terminal output that followed.'
              : `Tool environment of an agent task (recorded as ATIF by ${agent}). Each action is a tool call ` +
                '(shell commands as typed, other tools as JSON {"name", "arguments"}); each observation is the tool\'s result.',
          initialState: task ?? '',
          sourceKey: contentKey([FORMAT, text]),
          rootProvenance: {
            source: { format: FORMAT, file: source.name, ...(atif.session_id ? { sampleId: atif.session_id } : {}) },
            atif: { schemaVersion: atif.schema_version, ...(atif.agent ? { agent: atif.agent } : {}) },
          },
          steps,
        },
        newId,
        now,
      ),
    };
  },
};

export const atifFormat: FormatEntry = { id: 'atif', label: 'ATIF trajectory.json (Terminal-Bench 2 / Harbor)', extensions: ['json'], importer: atifImporter };
