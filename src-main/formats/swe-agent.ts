// SWE-agent trajectories (`<instance>.traj`, one JSON document per task instance): each
// step's action (a shell or editor command in the repository) and the observation the
// environment returned. The agent's thought becomes the node's reasoning. Demonstration
// messages in `history` (is_demo) belong to the agent's prompt, not to this environment.
import { z } from 'zod';
import { chainBundle, type StepDraft } from '../common/trajectory/build';
import type { ImportItem, ImportSource, TrajectoryImporter, FormatEntry } from './format';
import { contentKey } from './content-key';
import { contentText, parseJsonDocument, zodProblem } from './json-document';

const FORMAT = 'swe-agent';

const Step = z.looseObject({
  action: z.string(),
  observation: z.string().nullable().optional(),
  thought: z.string().nullable().optional(),
  execution_time: z.number().optional(),
});

const Message = z.looseObject({
  role: z.string(),
  content: z.unknown(),
  is_demo: z.boolean().optional(),
});

const Traj = z.looseObject({
  trajectory: z.array(z.unknown()),
  history: z.array(z.unknown()).optional(),
  info: z.looseObject({ exit_status: z.string().nullable().optional(), submission: z.string().nullable().optional() }).optional(),
  environment: z.string().optional(),
});

export const DEFAULT_SWE_SYSTEM_PROMPT =
  'SWE environment: a checked-out software repository in a Linux shell. Each action is a shell ' +
  'command or an editor command (view, search, edit, submit) run in the repository; each ' +
  'observation is what the command printed, or the edited file excerpt.';

export const sweAgentImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'SWE-agent trajectory (.traj)',
  detect(name, head) {
    if (/\.traj$/i.test(name)) return 0.9;
    const start = head.trimStart();
    if (start.startsWith('{') && head.includes('"trajectory"') && /"(observation|history)"/.test(head) && !head.includes('"schema_version"')) return 0.7;
    return 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const text = source.text();
    const doc = parseJsonDocument(text);
    if ('problem' in doc) {
      yield doc.problem;
      return;
    }
    const parsed = Traj.safeParse(doc.value);
    if (!parsed.success) {
      yield zodProblem(parsed.error);
      return;
    }
    const traj = parsed.data;
    const steps: StepDraft[] = [];
    for (const [i, raw] of traj.trajectory.entries()) {
      const step = Step.safeParse(raw);
      if (!step.success) {
        yield zodProblem(step.error, ['trajectory', i]);
        continue;
      }
      const { action, observation, thought, execution_time } = step.data;
      steps.push({
        action: action.replace(/\s+$/, ''),
        observation: observation ?? '',
        reasoning: thought?.trim() ? thought.trim() : null,
        origin: 'real',
        provenance: {
          source: { format: FORMAT, file: source.name },
          step: i,
          ...(execution_time !== undefined ? { timings: { executionSeconds: execution_time } } : {}),
        },
      });
    }
    if (steps.length === 0) {
      yield { kind: 'problem', line: null, field: 'trajectory', reason: 'the trajectory has no usable steps' };
      return;
    }

    // The agent's own (non-demonstration) messages: its system prompt, and the first
    // observation it got — the task statement — which is the environment's initial state.
    const messages = (traj.history ?? []).flatMap((m) => {
      const msg = Message.safeParse(m);
      return msg.success && !msg.data.is_demo ? [msg.data] : [];
    });
    const system = messages.find((m) => m.role === 'system');
    const task = messages.find((m) => m.role === 'user');
    const instance = source.name.replace(/\.traj$/i, '');
    const exitStatus = traj.info?.exit_status ?? null;
    yield {
      kind: 'trajectory',
      bundle: chainBundle(
        {
          title: `${instance} (SWE-agent${exitStatus ? `, ${exitStatus}` : ''})`,
          domain: 'swe',
          systemPrompt: system ? contentText(system.content) : DEFAULT_SWE_SYSTEM_PROMPT,
          initialState: task ? contentText(task.content) : '',
          sourceKey: contentKey([FORMAT, text]),
          rootProvenance: {
            source: { format: FORMAT, file: source.name, sampleId: instance },
            sweAgent: {
              exitStatus,
              submitted: Boolean(traj.info?.submission),
              ...(traj.environment ? { environment: traj.environment } : {}),
            },
          },
          steps,
        },
        newId,
        now,
      ),
    };
  },
};

export const sweAgentFormat: FormatEntry = { id: 'swe-agent', label: 'SWE-agent trajectory (.traj)', extensions: ['traj'], importer: sweAgentImporter };
