// The ONNX engine on onnxruntime-node's WebGPU provider (Dawn over Vulkan here): the int4
// Qwen3.5-MoE fixture opens with every heavy operator placed on WebGPU, and its greedy tokens
// equal the CPU provider's, token for token. CI runs it on Mesa's lavapipe (a CPU Vulkan
// driver, .ci/run); it skips, saying why, where no Vulkan adapter exists at all. And `auto`
// never picks a software adapter: on such a machine it says so and runs on the CPU.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SamplingParams } from '../../common/engine';
import { probeGpuAdapter } from '../gpu-adapter';
import { sessionOptions } from './execution-providers';
import { OnnxEngine } from './onnx-engine';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FOLDER = join(import.meta.dirname, 'fixtures', 'qwen35', 'tokens-int4');
/** The operators a Qwen3.5-MoE graph spends its time in; a CPU fallback of any would make "on the GPU" a lie. */
const HEAVY = ['QMoE', 'LinearAttention', 'CausalConvWithState', 'GroupQueryAttention', 'MatMulNBits'];

const adapter = probeGpuAdapter();
const skipReason = adapter.verdict === 'none' ? `no WebGPU adapter on this machine (${adapter.detail})` : null;
if (skipReason) console.warn(`webgpu.test.ts skipped: ${skipReason}. Install a Vulkan driver (CI: mesa-vulkan-drivers from bookworm-backports).`);

const greedy = (maxTokens: number): SamplingParams => ({ temperature: 0, topK: 0, topP: 1, maxTokens, seed: 0, stop: [] });
const cases = (JSON.parse(readFileSync(join(FOLDER, 'golden.json'), 'utf8')) as { cases: { promptIds: number[]; reference: number[] }[] }).cases;

async function greedyTokens(engine: OnnxEngine, maxTokens: number): Promise<number[][]> {
  const tokens = cases.map(() => [] as number[]);
  const results = await engine.generateFromIds(
    cases.map((c, i) => ({ id: String(i), promptIds: c.promptIds, sampling: greedy(maxTokens) })),
    (event) => {
      if (event.tokenId !== undefined) tokens[Number(event.requestId)]!.push(event.tokenId);
    },
  );
  for (const result of results) expect(result.finishReason, result.error).not.toBe('error');
  return tokens;
}

/**
 * Which provider onnxruntime assigned each node to, from its own verbose placement log
 * ("Node(s) placed on [WebGpuExecutionProvider]"), in a child process: the log goes to the
 * native stderr, which this process cannot read back.
 */
function placements(): Map<string, Set<string>> {
  const options = { ...sessionOptions('webgpu', {}), logSeverityLevel: 0, logVerbosityLevel: 0 };
  const script =
    "import ort from 'onnxruntime-node';" +
    'const s = await ort.InferenceSession.create(process.argv[1], JSON.parse(process.argv[2]));' +
    'await s.release();';
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, join(FOLDER, 'model.onnx'), JSON.stringify(options)], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(child.status, child.stderr.slice(-2000)).toBe(0);
  const byProvider = new Map<string, Set<string>>();
  let provider = '';
  for (const line of `${child.stdout}\n${child.stderr}`.split('\n')) {
    const header = /Node\(s\) placed on \[(\w+)\]/.exec(line);
    if (header) provider = header[1]!;
    const node = /VerifyEachNodeIsAssignedToAnEp\] {3}(\w+) \(/.exec(line);
    if (node && provider) {
      if (!byProvider.has(provider)) byProvider.set(provider, new Set());
      byProvider.get(provider)!.add(node[1]!);
    }
  }
  return byProvider;
}

describe.skipIf(skipReason !== null)(`the int4 Qwen3.5-MoE fixture on WebGPU (${adapter.verdict} adapter ${adapter.name})`, () => {
  let cpu: OnnxEngine;
  let webgpu: OnnxEngine;
  beforeAll(async () => {
    cpu = await OnnxEngine.load(FOLDER, { device: 'cpu', intraOpThreads: 1 });
    webgpu = await OnnxEngine.load(FOLDER, { device: 'webgpu', intraOpThreads: 1 });
  }, 120_000);
  afterAll(async () => {
    await cpu?.dispose();
    await webgpu?.dispose();
  }, 60_000);

  it('places every heavy operator on WebGPU, none on the CPU', { timeout: 120_000 }, () => {
    const placed = placements();
    const onGpu = placed.get('WebGpuExecutionProvider') ?? new Set();
    const onCpu = placed.get('CPUExecutionProvider') ?? new Set();
    for (const op of HEAVY) {
      expect(onGpu.has(op) || (op === 'MatMulNBits' && onGpu.has('MatMulNBitsQkv')), `${op} on WebGPU`).toBe(true);
      expect(onCpu.has(op), `${op} fell back to the CPU`).toBe(false);
    }
  });

  it('runs on the WebGPU provider, which the model panel reports', () => {
    const described = webgpu.describe();
    expect(described.device).toBe('webgpu');
    expect(described.providers).toEqual([expect.objectContaining({ name: 'webgpu', used: true })]);
    // The panel names the backend and the adapter it got, software ones included.
    expect(described.providers[0]!.reason).toContain(`, ${adapter.verdict} adapter ${adapter.name} (`);
  });

  // The first run on a software adapter compiles every shader (about a minute on lavapipe); later steps are quick.
  it('decodes the same greedy tokens as the CPU provider, token for token', { timeout: 600_000 }, async () => {
    const maxTokens = 8;
    const onCpu = await greedyTokens(cpu, maxTokens);
    const onGpu = await greedyTokens(webgpu, maxTokens);
    expect(onCpu.every((row) => row.length > 0)).toBe(true);
    expect(onGpu).toEqual(onCpu);
  });
});

describe.skipIf(adapter.verdict !== 'software')(`auto on a machine whose only adapter is software (${adapter.name})`, () => {
  it('skips WebGPU, says why, and runs on the CPU', async () => {
    const engine = await OnnxEngine.load(FOLDER, { device: 'auto', intraOpThreads: 1 });
    try {
      const { device, providers } = engine.describe();
      expect(device).toBe('cpu');
      const webgpu = providers.find((p) => p.name === 'webgpu');
      expect(webgpu?.used).toBe(false);
      expect(webgpu?.reason).toContain(`only a software adapter (${adapter.name})`);
      expect(providers.at(-1)).toMatchObject({ name: 'cpu', used: true });
    } finally {
      await engine.dispose();
    }
  });
});
