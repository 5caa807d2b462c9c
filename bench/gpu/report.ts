// The GPU bench's JSON: each measured decode rate beside the rate the memory bandwidth allows for
// the bytes its steps read, the full model's rates projected from two depths, and the goals.

import { bandwidthLimit, bytesPerStep, projectSeconds, REFERENCE_MODEL, type DepthPair, type WeightBytes } from './figures';
import type { ModelMeasurement } from './measure';

export interface MeasuredModel {
  file: string;
  fileType: string;
  fileBytes: number;
  weights: WeightBytes;
  requestedDevice: string;
  measurement: ModelMeasurement | null;
  error?: string;
}

export interface Bandwidth { bytesPerSecond: number; source: string }

export interface DecodeRow { sequences: number; tokensPerSecond: number; bytesPerStep: number; limitTokensPerSecond: number; fractionOfLimit: number }

export function decodeRows(model: MeasuredModel, bandwidth: Bandwidth): DecodeRow[] {
  return (model.measurement?.decode ?? []).map((figure) => {
    const limit = bandwidthLimit(model.weights, figure.sequences, bandwidth.bytesPerSecond);
    return {
      sequences: figure.sequences,
      tokensPerSecond: figure.tokensPerSecond,
      bytesPerStep: bytesPerStep(model.weights, figure.sequences),
      limitTokensPerSecond: limit,
      fractionOfLimit: figure.tokensPerSecond / limit,
    };
  });
}

/** Weights of the reference model's 40 layers and its full-vocabulary head, in the measured files' encoding. */
function referenceWeights(deep: WeightBytes): WeightBytes {
  const perLayer = (bytes: number) => (bytes / deep.layers) * REFERENCE_MODEL.layers;
  const headPerRow = deep.headRows > 0 ? deep.head / deep.headRows : 0;
  return {
    ...deep,
    // The final norm sits in `dense` too; at 2,048 values it does not move the figure.
    dense: perLayer(deep.dense),
    experts: perLayer(deep.experts),
    head: headPerRow * REFERENCE_MODEL.vocabulary,
    headRows: REFERENCE_MODEL.vocabulary,
    layers: REFERENCE_MODEL.layers,
  };
}

/** Whether the measured layers route as the reference model's do (256 experts, 8 a token): only then is the projection of it. */
function realSizes(weights: WeightBytes): boolean {
  return weights.expertCount === 256 && weights.expertsUsed === 8;
}

export interface Projection {
  device: string;
  fileType: string;
  from: string;
  note: string;
  prefill: { tokens: number; tokensPerSecond: number }[];
  decode: { sequences: number; tokensPerSecond: number; limitTokensPerSecond: number; fractionOfLimit: number }[];
}

/** The full model's rates on one device and encoding, from the same layers measured at two depths. */
export function project(shallow: MeasuredModel, deep: MeasuredModel, bandwidth: Bandwidth): Projection | null {
  if (!shallow.measurement || !deep.measurement || shallow.weights.layers >= deep.weights.layers) return null;
  const full = referenceWeights(deep.weights);
  const pair = (a: number, b: number): DepthPair => ({
    shallow: { layers: shallow.weights.layers, seconds: a },
    deep: { layers: deep.weights.layers, seconds: b },
  });
  const unusable: string[] = [];
  const prefill = deep.measurement.prefill.flatMap((figure) => {
    const other = shallow.measurement!.prefill.find((f) => f.tokens === figure.tokens);
    if (!other) return [];
    // Prompt reading scores only the last position, so the head's size hardly matters here.
    const seconds = projectSeconds(pair(other.seconds, figure.seconds), REFERENCE_MODEL.layers);
    if (seconds === null) { unusable.push(`prompt of ${figure.tokens} tokens`); return []; }
    return [{ tokens: figure.tokens, tokensPerSecond: figure.tokens / seconds }];
  });
  const decode = deep.measurement.decode.flatMap((figure) => {
    const other = shallow.measurement!.decode.find((f) => f.sequences === figure.sequences);
    if (!other) return [];
    const layerBytes = (bytesPerStep(deep.weights, figure.sequences) - deep.weights.head) / deep.weights.layers;
    const seconds = projectSeconds(pair(other.stepSeconds, figure.stepSeconds), REFERENCE_MODEL.layers, full.head - deep.weights.head, layerBytes);
    if (seconds === null) { unusable.push(`decode at ${figure.sequences}`); return []; }
    const tokensPerSecond = figure.sequences / seconds;
    const limit = bandwidthLimit(full, figure.sequences, bandwidth.bytesPerSecond);
    return [{ sequences: figure.sequences, tokensPerSecond, limitTokensPerSecond: limit, fractionOfLimit: tokensPerSecond / limit }];
  });
  return {
    device: deep.measurement.device,
    fileType: deep.fileType,
    from: `${shallow.weights.layers} and ${deep.weights.layers} layers`,
    note:
      `PROJECTION, not a measurement: ${realSizes(deep.weights) ? `${REFERENCE_MODEL.name}'s` : `these layers are not ${REFERENCE_MODEL.name}'s sizes, so 40 of them, not it:`} ` +
      `${REFERENCE_MODEL.layers} layers at the per-layer cost measured between ` +
      `${shallow.weights.layers} and ${deep.weights.layers} layers, plus the fixed cost, plus a ${REFERENCE_MODEL.vocabulary}-row output head ` +
      'read at the bandwidth the layers reached' +
      (unusable.length ? `; none for ${unusable.join(', ')}: the deeper model was not slower there (noise outweighed the layers)` : ''),
    prefill,
    decode,
  };
}

export interface Goal { device: string; name: string; value: number; goal: number; met: boolean }

/** The issue's goals on a GPU: batch-1 decode within 2× of the bandwidth limit; 32 sequences at least 8× batch 1. */
export function goals(model: MeasuredModel, bandwidth: Bandwidth): Goal[] {
  const rows = decodeRows(model, bandwidth);
  const one = rows.find((row) => row.sequences === 1);
  const many = rows.find((row) => row.sequences === 32);
  const device = model.measurement?.device ?? model.requestedDevice;
  const out: Goal[] = [];
  if (one) out.push({ device, name: `${model.fileType}, ${model.weights.layers} layers: decode at 1 sequence as a fraction of the bandwidth limit`, value: one.fractionOfLimit, goal: 0.5, met: one.fractionOfLimit >= 0.5 });
  if (one && many) {
    const ratio = many.tokensPerSecond / one.tokensPerSecond;
    out.push({ device, name: `${model.fileType}, ${model.weights.layers} layers: aggregate decode at 32 sequences ÷ at 1`, value: ratio, goal: 8, met: ratio >= 8 });
  }
  return out;
}

function percent(fraction: number): string {
  return `${(100 * fraction).toPrecision(2)}%`;
}

/** A few lines for a person reading the run's log; the JSON holds everything. */
export function summaryLines(models: MeasuredModel[], projections: Projection[], bandwidth: Bandwidth): string[] {
  const lines: string[] = [];
  for (const model of models) {
    const head = `${model.requestedDevice.padEnd(7)} ${model.fileType.padEnd(6)} ${String(model.weights.layers).padStart(2)} layers`;
    if (!model.measurement) { lines.push(`${head}: not run: ${model.error}`); continue; }
    const prefill = model.measurement.prefill.map((f) => `prompt ${f.tokens}: ${f.tokensPerSecond.toFixed(0)} tok/s`).join(', ');
    const decode = decodeRows(model, bandwidth).map((r) => `×${r.sequences}: ${r.tokensPerSecond.toFixed(1)} tok/s (${percent(r.fractionOfLimit)} of limit)`).join(', ');
    lines.push(`${head} on ${model.measurement.device}: ${prefill}; decode ${decode}${model.measurement.skipped.length ? `; skipped ${model.measurement.skipped.join(', ')}` : ''}`);
  }
  for (const projection of projections) {
    const decode = projection.decode.map((r) => `×${r.sequences}: ${r.tokensPerSecond.toFixed(1)} tok/s (${percent(r.fractionOfLimit)})`).join(', ');
    lines.push(`projected ${REFERENCE_MODEL.layers} layers, ${projection.fileType} on ${projection.device}: decode ${decode}`);
  }
  return lines;
}
