// Which turns of an exported example should carry the loss, and the trainer settings that
// put it there: TRL, ms-swift and LLaMA-Factory each train every assistant turn of a
// `messages` conversation unless told otherwise, and a per-step example repeats every
// earlier observation (or action) as an assistant turn. Written into the dataset card and
// into LLaMA-Factory's dataset_info.json. Pure.
import type { ResolvedExampleOptions } from '../builders';

export interface LossSettings {
  /** One sentence: which turns carry the loss. */
  summary: string;
  trl: string;
  msSwift: string | null;
  /** LLaMA-Factory training arguments (YAML keys), when any are needed. */
  llamaFactory: Record<string, unknown> | null;
}

export function lossSettings(format: string, options: ResolvedExampleOptions): LossSettings {
  const taught = options.builder === 'agent' ? 'action' : 'observation';
  if (options.builder === 'preference') {
    return {
      summary: 'Each pair teaches one step: the prompt (history and action) is context; the loss compares the chosen and the rejected observation.',
      trl: '`DPOTrainer` on the preference files as they are.',
      msSwift: null,
      llamaFactory: { stage: 'dpo' },
    };
  }
  if (options.per === 'path') {
    return {
      summary: `Each example is a whole path: every assistant turn (each ${taught}) carries the loss; system and user turns do not.`,
      trl:
        format === 'messages'
          ? "SFTTrainer trains every token of a `messages` conversation; its `assistant_only_loss=True` limits the loss to assistant turns only with a chat template that has `{% generation %}` markers (Qwen's do not)."
          : 'SFTTrainer on the data as loaded.',
      msSwift: '`--loss_scale default` (the default): every assistant turn is trained.',
      llamaFactory: { mask_history: false },
    };
  }
  if (format === 'prompt-completion') {
    return {
      summary: `Each example teaches one step: the prompt (history${options.builder === 'agent' ? ' and tool results' : ' and action'}) is context, and only the completion, the step's ${taught}, carries the loss.`,
      trl: '`SFTConfig(completion_only_loss=True)` (the default for prompt/completion data): the loss is on the completion only.',
      msSwift: null,
      llamaFactory: null,
    };
  }
  if (format === 'agentworldbench') {
    return { summary: 'AgentWorldBench lines are evaluation prompts, not trainer input.', trl: 'Not a TRL format.', msSwift: null, llamaFactory: null };
  }
  return {
    summary:
      `Each example teaches one step: only its last assistant turn (the step's ${taught}) should carry the loss. ` +
      `Earlier assistant turns repeat ${taught}s that other examples already teach; trained as they are, a 10-step path teaches its first ${taught} 10 times.`,
    trl:
      format === 'messages'
        ? 'SFTTrainer trains every token of a `messages` conversation and cannot mask the history with Qwen templates (no `{% generation %}` markers): for TRL, export `prompt-completion`, whose completion is exactly the last turn.'
        : 'export `prompt-completion` for TRL: its completion is exactly the last turn.',
    msSwift: '`--loss_scale last_round`: only the last assistant turn is trained.',
    llamaFactory: { mask_history: true },
  };
}

/** The card's section: the sentence, then one line per trainer. */
export function lossSection(format: string, options: ResolvedExampleOptions): string {
  const s = lossSettings(format, options);
  const lines = [s.summary, '', `- TRL: ${s.trl}`];
  if (s.msSwift) lines.push(`- ms-swift: ${s.msSwift}`);
  if (s.llamaFactory) {
    lines.push(
      `- LLaMA-Factory: ${Object.entries(s.llamaFactory)
        .map(([k, v]) => `\`${k}: ${String(v)}\``)
        .join(', ')} in the training arguments (also noted as \`worldloom_training_args\` in \`dataset_info.json\` for ShareGPT exports).`,
    );
  }
  return lines.join('\n');
}
