// A downloaded folder can pair a graph with a configuration or tokenizer of another model;
// run as is it decodes nonsense or crashes deep inside onnxruntime. These checks compare
// what genai_config.json (and config.json, and the tokenizer) declare with what the graph
// actually takes, and say which file disagrees and what to do.

import type { InferenceSession } from 'onnxruntime-node';
import { EngineError } from '../../common/engine';
import type { CacheLayout } from './cache-layout';
import type { ModelConfig } from './genai-config';
import { readModelJson } from './model-files';

type Graph = Pick<InferenceSession, 'inputNames' | 'inputMetadata' | 'outputMetadata'>;

export interface GraphFacts {
  folder: string;
  /** Highest token id the tokenizer can produce. */
  maxTokenId: number;
  /** Width of the embedding model's output, when the layout has one. */
  embeddingWidth?: number;
}

export function checkGraphAgainstConfig(graph: Graph, layout: CacheLayout, config: ModelConfig, facts: GraphFacts): void {
  const { declared } = config;
  const rebuild = 'The folder mixes files of different models or builds: convert the model again into an empty folder.';
  const disagree = (what: string): never => {
    throw new EngineError(`${what} in ${facts.folder}. ${rebuild}`, 'model-corrupt');
  };
  const input = (name: string) => graph.inputMetadata.find((m) => m.name === name);
  const output = (name: string) => graph.outputMetadata.find((m) => m.name === name);

  for (const name of [config.inputNames.inputIds, config.inputNames.attentionMask, config.inputNames.positionIds]) {
    const meta = input(name);
    if (meta?.isTensor && meta.type !== 'int64') {
      disagree(`Graph input '${name}' takes ${meta.type}, but the engine feeds int64 as the model builder writes it`);
    }
  }

  const logits = output(config.logitsName);
  if (logits?.isTensor) {
    if (logits.type !== 'float32' && logits.type !== 'float16') disagree(`The logits are ${logits.type}; expected float32 or float16`);
    const vocab = logits.shape.at(-1);
    if (typeof vocab === 'number') {
      if (declared.vocabSize !== undefined && declared.vocabSize !== vocab) {
        disagree(`genai_config.json model.vocab_size is ${declared.vocabSize} but the graph's logits have ${vocab} entries`);
      }
      if (facts.maxTokenId >= vocab) {
        disagree(`The tokenizer has token id ${facts.maxTokenId}, beyond the ${vocab} logits the graph produces`);
      }
    }
  }

  if (layout.tokenInput === 'embeds') {
    const embeds = input(config.inputNames.inputsEmbeds);
    const width = embeds?.isTensor ? embeds.shape.at(-1) : undefined;
    if (typeof width === 'number' && declared.hiddenSize !== undefined && width !== declared.hiddenSize) {
      disagree(`genai_config.json model.decoder.hidden_size is ${declared.hiddenSize} but the graph takes embeddings of ${width}`);
    }
    if (typeof width === 'number' && facts.embeddingWidth !== undefined && facts.embeddingWidth !== width) {
      disagree(`The embedding model makes embeddings of ${facts.embeddingWidth} but the decoder takes ${width}`);
    }
  }

  const layers = new Set<number>();
  for (const slot of layout.slots) {
    const index = /\.(\d+)\./.exec(`${slot.input}.`)?.[1];
    if (index !== undefined) layers.add(Number(index));
    if (slot.kind !== 'sequence' || slot.shape.length !== 4 || slot.sequenceAxis !== 2) continue;
    const [, heads, , headSize] = slot.shape;
    if (declared.kvHeads !== undefined && heads !== declared.kvHeads) {
      disagree(`genai_config.json model.decoder.num_key_value_heads is ${declared.kvHeads} but cache '${slot.input}' has ${heads} heads`);
    }
    if (declared.headSize !== undefined && headSize !== declared.headSize) {
      disagree(`genai_config.json model.decoder.head_size is ${declared.headSize} but cache '${slot.input}' has heads of ${headSize}`);
    }
  }
  if (declared.layers !== undefined && layers.size > 0) {
    const beyond = [...layers].filter((layer) => layer >= declared.layers!);
    if (beyond.length > 0 || layers.size !== declared.layers) {
      disagree(
        `genai_config.json model.decoder.num_hidden_layers is ${declared.layers} but the graph carries caches for ` +
          `${layers.size} layers (indices ${Math.min(...layers)}–${Math.max(...layers)})`,
      );
    }
  }

  const positions = maxPositions(facts.folder);
  if (positions !== null && config.contextLength > positions) {
    disagree(`genai_config.json model.context_length is ${config.contextLength} but config.json allows ${positions} positions`);
  }
}

/** config.json's max_position_embeddings (top level or text_config), when the folder carries it. */
function maxPositions(folder: string): number | null {
  try {
    const json = readModelJson(folder, 'config.json') as { max_position_embeddings?: unknown; text_config?: { max_position_embeddings?: unknown } } | null;
    if (!json) return null;
    const value = json.text_config?.max_position_embeddings ?? json.max_position_embeddings;
    return typeof value === 'number' && value > 0 ? value : null;
  } catch {
    return null;
  }
}
