// @huggingface/transformers (transformers.js) on the same model folder as the ONNX engine:
// the reference the engine is checked against (same greedy tokens) and measured against
// (decode and prefill speed). It also runs on onnxruntime-node, so the two differ only in
// how they drive the graph. Used by tests and benchmarks only; a devDependency.

import { basename, dirname } from 'node:path';
import {
  AutoModelForCausalLM,
  AutoTokenizer,
  env,
  Tensor,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers';
import type { ChatMessage } from '../common/engine';

export interface PeerRun {
  /** Generated token ids, the prompt excluded. */
  tokens: number[];
  /** performance.now() when each generated token reached the streamer. */
  tokenTimes: number[];
  /** performance.now() when generate was called. */
  startedAt: number;
}

export interface PeerOptions {
  /** onnxruntime session options, for a like-for-like comparison; default: transformers.js's own. */
  sessionOptions?: Record<string, unknown>;
}

export class TransformersPeer {
  private constructor(
    private readonly model: PreTrainedModel,
    private readonly tokenizer: PreTrainedTokenizer,
  ) {}

  /** Loads `folder` (config.json, tokenizer files, onnx/model.onnx) from disk only; nothing is downloaded. */
  static async load(folder: string, options: PeerOptions = {}): Promise<TransformersPeer> {
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = dirname(folder);
    const id = basename(folder);
    const tokenizer = await AutoTokenizer.from_pretrained(id, { local_files_only: true });
    const model = await AutoModelForCausalLM.from_pretrained(id, {
      local_files_only: true,
      device: 'cpu',
      dtype: 'fp32',
      ...(options.sessionOptions ? { session_options: options.sessionOptions } : {}),
    });
    return new TransformersPeer(model, tokenizer);
  }

  /** The prompt for the next assistant turn, through transformers.js's own template and tokenizer. */
  chatTokens(messages: readonly ChatMessage[]): number[] {
    const text = this.tokenizer.apply_chat_template(
      messages.map((message) => ({ role: message.role, content: message.content })),
      { tokenize: false, add_generation_prompt: true },
    ) as string;
    return this.tokenizer.encode(text, { add_special_tokens: false });
  }

  /** Greedy decoding of `maxNewTokens` after `promptTokens` (fewer if an EOS comes first). */
  async greedy(promptTokens: readonly number[], maxNewTokens: number): Promise<PeerRun> {
    const length = promptTokens.length;
    const inputIds = new Tensor('int64', BigInt64Array.from(promptTokens, (id) => BigInt(id)), [1, length]);
    const attentionMask = new Tensor('int64', new BigInt64Array(length).fill(1n), [1, length]);
    const tokens: number[] = [];
    const tokenTimes: number[] = [];
    let sawPrompt = false;
    // generate() hands the streamer the prompt first, then each new token as it is chosen.
    const streamer = {
      put(value: bigint[][]): void {
        if (!sawPrompt) {
          sawPrompt = true;
          return;
        }
        tokens.push(Number(value[0]![0]!));
        tokenTimes.push(performance.now());
      },
      end(): void {},
    };
    const startedAt = performance.now();
    // The typings ask for a TextStreamer; generate() only ever calls put and end.
    await this.model.generate({
      inputs: inputIds,
      attention_mask: attentionMask,
      max_new_tokens: maxNewTokens,
      do_sample: false,
      streamer,
    } as unknown as Parameters<PreTrainedModel['generate']>[0]);
    return { tokens, tokenTimes, startedAt };
  }

  async dispose(): Promise<void> {
    await this.model.dispose();
  }
}
