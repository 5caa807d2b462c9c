// The child process of model-probe.ts: opens one model the way the app will (GGUF: its metadata
// and a llama.cpp model load with no context, on the CPU; ONNX: an onnxruntime session of the
// graph), then writes {"ok":…} as its last line and exits, with the runtime's error when it
// refused the file (the app may then open it and say why, safely). If the runtime aborts, this
// process dies and the parent reports the signal and what was printed.

import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { ProbeReport } from './model-probe';

const [kind, path] = process.argv.slice(2) as ['gguf' | 'onnx', string];

async function probeGguf(file: string): Promise<void> {
  const { getLlama, LlamaLogLevel, readGgufFileInfo } = await import('node-llama-cpp');
  const { loadModelNamingCause } = await import('./gguf/model-load');
  const info = await readGgufFileInfo(file, { readTensorInfo: true, spliceSplitFiles: true, logWarnings: false });
  const architecture = String((info.metadata as { general?: { architecture?: string } }).general?.architecture ?? '');
  const llama = await getLlama({ gpu: false, build: 'never', skipDownload: true, usePrebuiltBinaries: true, logLevel: LlamaLogLevel.error });
  // What llama.cpp prints on its way down (an assert's line) goes to stderr, where the parent reads it.
  llama.logger = (_level, message) => process.stderr.write(`${message}\n`);
  const model = await loadModelNamingCause(llama, { path: file, name: basename(file), architecture, bytes: statSync(file).size }, 0);
  await model.dispose();
  await llama.dispose();
}

async function probeOnnx(file: string): Promise<void> {
  const { InferenceSession } = await import('onnxruntime-node');
  const session = await InferenceSession.create(file, { executionProviders: ['cpu'], logSeverityLevel: 3 });
  await session.release();
}

const report = (result: ProbeReport): void => {
  process.stdout.write(`\n${JSON.stringify(result)}\n`, () => process.exit(0));
};

(kind === 'gguf' ? probeGguf(path) : probeOnnx(path)).then(
  () => report({ ok: true }),
  (error: unknown) => report({ ok: false, message: error instanceof Error ? error.message : String(error) }),
);

