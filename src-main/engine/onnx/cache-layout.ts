// Finds the decoder's cache tensors from the graph itself: every input that is not a
// token/mask/position input is carried state, paired with the output that replaces it
// on the next step. A slot whose shape has a symbolic axis besides batch grows along it
// (an attention layer's key or value); a slot with only fixed axes is replaced whole
// (a linear-attention layer's conv or recurrent state). No layer count, naming scheme
// or layer order is assumed. The builder's newer graphs leave the KV head size symbolic
// too ("kv_cache_dim"); that axis takes its size from genai_config.json's head_size.

import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { EngineError } from '../../common/engine';
import type { ModelConfig } from './genai-config';

export interface CacheSlot {
  input: string;
  output: string;
  /** 'sequence': grows one position per token and can be cut to any shorter prefix.
   *  'state': fixed size, summarises everything seen, valid only at the exact position it was made. */
  kind: 'sequence' | 'state';
  type: Tensor.Type;
  /** Shape with the batch axis (0) set to 1 and, for sequence slots, the sequence axis set to 0. */
  shape: number[];
  /** The growing axis for sequence slots; -1 for state slots. */
  sequenceAxis: number;
  bytesPerElement: number;
}

export interface CacheLayout {
  slots: CacheSlot[];
  /** True when some slot is fixed-size state, so a cached prefix is reusable only at its exact end. */
  hasState: boolean;
  /** Cache bytes one token adds to one sequence. */
  bytesPerToken: number;
  /** Fixed-size state bytes for one sequence. */
  stateBytesPerSequence: number;
  /** How tokens enter the graph: as ids, or as embeddings made by the folder's embedding model. */
  tokenInput: 'ids' | 'embeds';
  /**
   * Rank of the position ids: 2 ([batch, seq]), 3 (multimodal rotary positions [3, batch,
   * seq], the same position in every row for text), or 0 when the graph derives them from the mask.
   */
  positionRank: 0 | 2 | 3;
}

const BYTES: Partial<Record<Tensor.Type, number>> = { float32: 4, float16: 2, float64: 8, int8: 1, uint8: 1 };

type Metadata = InferenceSession['inputMetadata'][number];
type GraphView = Pick<InferenceSession, 'inputNames' | 'outputNames' | 'inputMetadata'>;

export function discoverCacheLayout(session: GraphView, config: ModelConfig): CacheLayout {
  const { inputIds, inputsEmbeds, attentionMask, positionIds } = config.inputNames;
  const tokenInput = session.inputNames.includes(inputIds) ? 'ids' : session.inputNames.includes(inputsEmbeds) ? 'embeds' : null;
  if (tokenInput === null) {
    throw new EngineError(
      `The model graph has neither a '${inputIds}' nor an '${inputsEmbeds}' input; it is not a decoder this engine can run.`,
      'model-corrupt',
    );
  }
  if (!session.inputNames.includes(attentionMask)) {
    throw new EngineError(`The model graph has no '${attentionMask}' input; it is not a decoder this engine can run.`, 'model-corrupt');
  }
  if (!session.outputNames.includes(config.logitsName)) {
    throw new EngineError(`The model graph has no '${config.logitsName}' output.`, 'model-corrupt');
  }
  const tokenInputs = new Set([inputIds, inputsEmbeds, attentionMask, positionIds]);
  const slots: CacheSlot[] = [];
  for (const input of session.inputNames) {
    if (tokenInputs.has(input)) continue;
    const output = matchingOutput(input, config, session.outputNames);
    const meta = metadataOf(session, input);
    if (!meta.isTensor) {
      throw new EngineError(`Model input '${input}' is not a tensor; the engine cannot carry it between steps.`, 'model-corrupt');
    }
    slots.push(describeSlot(input, output, meta.type, meta.shape, config.declared.headSize));
  }
  const perSequence = (kind: CacheSlot['kind']): number =>
    slots
      .filter((slot) => slot.kind === kind)
      .reduce((sum, slot) => sum + slot.bytesPerElement * slot.shape.reduce((n, d, axis) => n * (axis === slot.sequenceAxis ? 1 : d), 1), 0);
  let positionRank: CacheLayout['positionRank'] = 0;
  if (session.inputNames.includes(positionIds)) {
    const rank = metadataOf(session, positionIds);
    positionRank = rank.isTensor && rank.shape.length === 3 ? 3 : 2;
  }
  return {
    slots,
    hasState: slots.some((slot) => slot.kind === 'state'),
    bytesPerToken: perSequence('sequence'),
    stateBytesPerSequence: perSequence('state'),
    tokenInput,
    positionRank,
  };
}

function metadataOf(session: GraphView, name: string): Metadata & { isTensor: true } | { isTensor: false } {
  const meta = session.inputMetadata.find((m) => m.name === name);
  return meta && meta.isTensor ? meta : { isTensor: false };
}

/** Free (symbolic) axes other than batch, by the names builders give them. */
const SEQUENCE_AXIS = /seq|past|length|total/i;

function describeSlot(
  input: string,
  output: string,
  type: Tensor.Type,
  dims: ReadonlyArray<number | string>,
  headSize: number | undefined,
): CacheSlot {
  const bytesPerElement = BYTES[type];
  if (bytesPerElement === undefined) {
    throw new EngineError(
      `Cache input '${input}' has element type ${type}, which the engine does not carry; ` +
        'build the model with float32 or float16 caches (model builder -p fp32, fp16 or int4).',
      'model-corrupt',
    );
  }
  if (dims.length < 2) {
    throw new EngineError(`Cache input '${input}' has shape [${dims.join(', ')}]; expected a batch axis and more.`, 'model-corrupt');
  }
  const free = dims.map((d, axis) => (axis > 0 && typeof d !== 'number' ? axis : -1)).filter((axis) => axis > 0);
  const sequenceAxis = free.length === 1 ? free[0]! : (free.find((axis) => SEQUENCE_AXIS.test(String(dims[axis]))) ?? -1);
  const others = free.filter((axis) => axis !== sequenceAxis);
  const resolved = dims.map((d) => d);
  for (const axis of others) {
    // A symbolic last axis of a key/value cache is its head size (the builder's "kv_cache_dim").
    if (axis === dims.length - 1 && sequenceAxis > 0 && headSize !== undefined) {
      resolved[axis] = headSize;
      continue;
    }
    throw new EngineError(
      `Cache input '${input}' has free axes [${dims.join(', ')}]; the engine can grow only the sequence axis and ` +
        'take the last axis from genai_config.json model.decoder.head_size' +
        (headSize === undefined ? ', which is missing: add it' : '') + '.',
      'model-corrupt',
    );
  }
  const shape = resolved.map((d, axis) => (axis === 0 ? 1 : axis === sequenceAxis ? 0 : (d as number)));
  return { input, output, kind: sequenceAxis > 0 ? 'sequence' : 'state', type, shape, sequenceAxis, bytesPerElement };
}

/** The output that carries `input` forward: by the config's name templates, else by the usual past→present naming. */
function matchingOutput(input: string, config: ModelConfig, outputNames: readonly string[]): string {
  const candidates: string[] = [];
  for (const { past, present } of config.cacheNameTemplates) {
    const pattern = new RegExp(`^${past.split('%d').map(escapeRegExp).join('(\\d+)')}$`);
    const match = pattern.exec(input);
    if (match) {
      let group = 1;
      candidates.push(present.replace(/%d/g, () => match[group++] ?? ''));
    }
  }
  candidates.push(input.replace(/^past_key_values/, 'present'), input.replace(/^past/, 'present'));
  const found = candidates.find((name) => name !== input && outputNames.includes(name));
  if (!found) {
    throw new EngineError(
      `Model input '${input}' has no matching output (tried ${candidates.join(', ')}); ` +
        'genai_config.json model.decoder.inputs/outputs should name the past/present templates.',
      'model-corrupt',
    );
  }
  return found;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
