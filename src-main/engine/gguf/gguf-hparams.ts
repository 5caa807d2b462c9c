// The hyperparameters llama.cpp asserts on, checked before it sees a file. llama.cpp answers a
// value out of its range with GGML_ASSERT (abort) or a division by zero (SIGFPE): either ends
// the whole process, the app's main process and every window with it. The limits below are the
// ones of the llama.cpp node-llama-cpp ships (src/llama-hparams.h, src/llama-model.cpp,
// src/models/qwen35*.cpp); a refusal names the key, its value and the limit.

import { basename } from 'node:path';
import { EngineError } from '../../common/engine';
import type { GgufHeader, GgufScalar } from './gguf-header-scan';

/** llama-hparams.h LLAMA_MAX_LAYERS. */
export const LLAMA_MAX_LAYERS = 512;
/** llama-hparams.h LLAMA_MAX_EXPERTS. */
export const LLAMA_MAX_EXPERTS = 1024;
/** llama_rope_scaling_type_from_string: any other string fails an assert. */
const ROPE_SCALING_TYPES = ['none', 'linear', 'yarn', 'longrope'];
/** Architectures with linear-attention (gated delta net) layers between full-attention ones. */
const HYBRID_RECURRENT = new Set(['qwen35', 'qwen35moe', 'qwen3next']);

const asNumber = (value: GgufScalar | GgufScalar[] | undefined): number | undefined =>
  typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : undefined;

/** Checks the header of a model's first part (with every part's tensors) and refuses what llama.cpp would abort on. */
export function checkHyperparameters(path: string, header: GgufHeader, tensors = header.tensors): void {
  const file = basename(path);
  const architecture = String(header.entries.get('general.architecture')?.value ?? '');
  const key = (name: string) => `${architecture}.${name}`;
  const refuse = (what: string): never => {
    throw new EngineError(`${file}: ${what}. llama.cpp cannot run a model with this value: convert the model again, or download another copy.`, 'model-corrupt');
  };
  /** A scalar key, or every value of a per-layer array, as numbers. */
  const values = (name: string): number[] | undefined => {
    const entry = header.entries.get(key(name));
    if (!entry) return undefined;
    if (Array.isArray(entry.value)) return entry.value.map((v) => asNumber(v) ?? Number.NaN);
    const single = asNumber(entry.value);
    return single === undefined ? [Number.NaN] : [single];
  };
  const scalar = (name: string): number | undefined => values(name)?.[0];
  const max = (name: string): number | undefined => {
    const all = values(name);
    return all === undefined ? undefined : Math.max(...all);
  };

  const layers = scalar('block_count');
  if (layers === undefined) refuse(`it has no ${key('block_count')} (how many layers the model has)`);
  if (!(layers! > 0 && layers! <= LLAMA_MAX_LAYERS)) refuse(`${key('block_count')} is ${layers}; llama.cpp takes 1 to ${LLAMA_MAX_LAYERS} layers`);
  const nextn = scalar('nextn_predict_layers') ?? 0;
  if (nextn > layers!) refuse(`${key('nextn_predict_layers')} is ${nextn}, more than its ${layers} layers (${key('block_count')})`);

  const experts = scalar('expert_count') ?? 0;
  if (experts > LLAMA_MAX_EXPERTS) refuse(`${key('expert_count')} is ${experts}; llama.cpp takes at most ${LLAMA_MAX_EXPERTS} experts`);
  const used = max('expert_used_count') ?? 0;
  const groups = scalar('expert_group_count') ?? 0;
  const groupsUsed = scalar('expert_group_used_count') ?? 0;
  if (used > experts) refuse(`${key('expert_used_count')} is ${used}, more than the ${experts} experts it has (${key('expert_count')})`);
  if (experts > 0) {
    if (!(used > 0)) refuse(`${key('expert_used_count')} is ${used}: a model with ${experts} experts must use at least 1 per token`);
    if (groups >= experts) refuse(`${key('expert_group_count')} is ${groups}; it must be less than the ${experts} experts`);
    if (groups > 1) {
      if (experts % groups !== 0) refuse(`${key('expert_count')} ${experts} does not divide into ${groups} groups (${key('expert_group_count')})`);
      if (!(groupsUsed > 0 && groupsUsed < groups)) refuse(`${key('expert_group_used_count')} is ${groupsUsed}; it must be 1 to ${groups - 1}`);
    }
  } else if (used !== 0 || groups !== 0) {
    refuse(`it has no experts (${key('expert_count')} ${experts}) but ${key(used !== 0 ? 'expert_used_count' : 'expert_group_count')} is ${used !== 0 ? used : groups}`);
  }

  const scaling = header.entries.get(key('rope.scaling.type'))?.value;
  if (scaling !== undefined && !ROPE_SCALING_TYPES.includes(String(scaling))) {
    refuse(`${key('rope.scaling.type')} is '${String(scaling)}'; llama.cpp knows ${ROPE_SCALING_TYPES.join(', ')}`);
  }

  const width = scalar('embedding_length');
  const heads = values('attention.head_count');

  // Per-architecture: head counts may be per layer and 0 on layers without attention elsewhere
  // (Jamba, Falcon-H1), so these hold only where Worldloom knows the layout.
  if (HYBRID_RECURRENT.has(architecture)) {
    const headsKv = values('attention.head_count_kv') ?? heads;
    for (const [layer, n] of (heads ?? []).entries()) {
      const kv = headsKv?.[layer] ?? headsKv?.[0] ?? n;
      if (n > 0 && kv > 0 && n % kv !== 0) refuse(`${key('attention.head_count')} ${n} is not a multiple of ${key('attention.head_count_kv')} ${kv} (layer ${layer})`);
    }
    // These architectures have attention on some layers: a head count of 0 makes a tensor dimension 0 (an assert).
    for (const name of ['attention.head_count', 'attention.head_count_kv', 'attention.key_length', 'attention.value_length']) {
      const found = values(name);
      if (found?.some((n) => !(n > 0))) refuse(`${key(name)} is ${found.join(', ')}; it must be at least 1`);
    }
    // Linear-attention sizes divide other sizes; 0 ends the process with a division by zero. (A
    // missing key is llama.cpp's own refusal, "key not found", which names it: no abort.)
    for (const name of ['ssm.conv_kernel', 'ssm.inner_size', 'ssm.state_size', 'ssm.time_step_rank', 'ssm.group_count']) {
      const found = scalar(name);
      if (found !== undefined && !(found > 0)) refuse(`${key(name)} is ${found}; it must be at least 1`);
    }
    const rank = scalar('ssm.time_step_rank');
    const group = scalar('ssm.group_count');
    if (rank !== undefined && group !== undefined && rank % group !== 0) {
      refuse(`${key('ssm.time_step_rank')} ${rank} is not a multiple of ${key('ssm.group_count')} ${group}`);
    }
    const interval = scalar('full_attention_interval');
    if (!header.entries.has(key('attention.recurrent_layers')) && interval !== undefined && !(interval > 0)) {
      refuse(`${key('full_attention_interval')} is ${interval}; it must be at least 1 (every how many layers one has full attention)`);
    }
    const recurrent = values('attention.recurrent_layers');
    if (recurrent && recurrent.length !== layers!) {
      refuse(`${key('attention.recurrent_layers')} lists ${recurrent.length} layers but the model has ${layers} (${key('block_count')})`);
    }
    const keyLength = scalar('attention.key_length') ?? (width && heads ? Math.floor(width / heads[0]!) : undefined);
    const rotary = scalar('rope.dimension_count') ?? keyLength ?? 0;
    if (keyLength !== undefined && (rotary > keyLength || rotary % 2 !== 0)) {
      refuse(`${key('rope.dimension_count')} is ${rotary}; it must be even and at most the head size ${keyLength} (${key('attention.key_length')})`);
    }
    const sections = values('rope.dimension_sections');
    if (sections && rotary > 0) {
      const sum = sections.reduce((a, b) => a + b, 0);
      if (sections.some((s) => !(s >= 0)) || sum > rotary / 2) {
        refuse(`${key('rope.dimension_sections')} is [${sections.join(', ')}], ${sum} in all; the sections must share the rotary half, ${rotary / 2} (${key('rope.dimension_count')} ${rotary} / 2)`);
      }
    }
  }

  // Elsewhere llama.cpp refuses such a file with an error of its own (no abort): it says why.
  if (HYBRID_RECURRENT.has(architecture)) checkTensorsAgainstMetadata(header, tensors, architecture, { layers: layers!, nextn, width, experts }, refuse);
}

function checkTensorsAgainstMetadata(
  header: GgufHeader,
  tensors: GgufHeader['tensors'],
  architecture: string,
  facts: { layers: number; nextn: number; width: number | undefined; experts: number },
  refuse: (what: string) => never,
): void {
  const byName = new Map(tensors.map((t) => [t.name, t]));
  const vocabulary = header.entries.get('tokenizer.ggml.tokens')?.count;
  for (const name of ['token_embd.weight', 'output.weight']) {
    const tensor = byName.get(name);
    if (!tensor) continue;
    if (facts.width !== undefined && tensor.dims[0] !== facts.width) {
      refuse(`tensor '${name}' is ${tensor.dims[0]} wide but ${architecture}.embedding_length is ${facts.width}`);
    }
    if (vocabulary !== undefined && tensor.dims[1] !== vocabulary) {
      refuse(`tensor '${name}' has ${tensor.dims[1] ?? 1} rows but the vocabulary (tokenizer.ggml.tokens) has ${vocabulary} tokens`);
    }
  }
  for (const tensor of tensors) {
    const layer = /^blk\.(\d+)\./.exec(tensor.name);
    if (layer && Number(layer[1]) >= facts.layers) {
      refuse(`tensor '${tensor.name}' belongs to layer ${layer[1]} but the model has ${facts.layers} layers (${architecture}.block_count)`);
    }
    // Expert tensors stack one matrix per expert on their last dimension.
    if (/_exps\.weight$/.test(tensor.name) && facts.experts > 0 && tensor.dims.at(-1) !== facts.experts) {
      refuse(`tensor '${tensor.name}' holds ${tensor.dims.at(-1)} experts but ${architecture}.expert_count is ${facts.experts}`);
    }
  }
}
