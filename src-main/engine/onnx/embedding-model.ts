// The builder's multimodal layout splits the token embedding out of the decoder: a small
// embedding model turns token ids into `inputs_embeds` (and, for images, merges vision
// features in). Text-only use feeds it ids and an empty tensor for every other input.

import ort from 'onnxruntime-node';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { EngineError } from '../../common/engine';

export interface TokenEmbedder {
  embed(ids: BigInt64Array, batch: number, sequence: number): Promise<Tensor>;
}

export class EmbeddingModel implements TokenEmbedder {
  private readonly emptyFeeds: Record<string, Tensor> = {};

  constructor(
    private readonly session: InferenceSession,
    private readonly inputIds: string,
    private readonly output: string,
  ) {
    if (!session.inputNames.includes(inputIds)) {
      throw new EngineError(`The embedding model has no '${inputIds}' input (genai_config.json model.embedding.inputs.input_ids).`, 'model-corrupt');
    }
    if (!session.outputNames.includes(output)) {
      throw new EngineError(`The embedding model has no '${output}' output (genai_config.json model.embedding.outputs.embeddings).`, 'model-corrupt');
    }
    for (const meta of session.inputMetadata) {
      if (meta.name === inputIds) continue;
      // Image or audio features: none for text, so a tensor with zero rows along its free axis.
      const dims = meta.isTensor ? meta.shape.map((d) => (typeof d === 'number' ? d : 0)) : [];
      if (!meta.isTensor || !dims.includes(0) || (meta.type !== 'float32' && meta.type !== 'float16')) {
        throw new EngineError(
          `The embedding model needs input '${meta.name}', which text-only use cannot fill; ` +
            'build the embedding model with token ids as its only required input.',
          'model-corrupt',
        );
      }
      this.emptyFeeds[meta.name] = new ort.Tensor(meta.type, meta.type === 'float32' ? new Float32Array(0) : new Uint16Array(0), dims);
    }
  }

  /** Width of the embeddings, when the graph states it. */
  get hiddenSize(): number | undefined {
    const meta = this.session.outputMetadata.find((m) => m.name === this.output);
    const last = meta?.isTensor ? meta.shape.at(-1) : undefined;
    return typeof last === 'number' ? last : undefined;
  }

  async embed(ids: BigInt64Array, batch: number, sequence: number): Promise<Tensor> {
    const outputs = await this.session.run(
      { ...this.emptyFeeds, [this.inputIds]: new ort.Tensor('int64', ids, [batch, sequence]) },
      [this.output],
    );
    return outputs[this.output] as Tensor;
  }

  release(): Promise<void> {
    return this.session.release();
  }
}
