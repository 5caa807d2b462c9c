// The child process of model-probe.ts: opens one model the way the app will (GGUF: its metadata
// and a llama.cpp model load with no context, on the CPU; ONNX: an onnxruntime session of the
// graph), then writes {"ok":…} as its last line and exits. If the runtime aborts, this process
// dies and the parent reports the signal and what was printed.

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
  let session;
  try {
    session = await InferenceSession.create(file, { executionProviders: ['cpu'], logSeverityLevel: 3 });
  } catch (error) {
    throw new Error(onnxRefusal(basename(file), (error as Error).message));
  }
  await session.release();
}

const report = (result: ProbeReport): void => {
  process.stdout.write(`\n${JSON.stringify(result)}\n`, () => process.exit(0));
};

(kind === 'gguf' ? probeGguf(path) : probeOnnx(path)).then(
  () => report({ ok: true }),
  (error: unknown) => report({ ok: false, message: error instanceof Error ? error.message : String(error) }),
);

/** onnxruntime's reason, with what it means and what to do. */
function onnxRefusal(name: string, said: string): string {
  const prefix = `onnxruntime could not open ${name}: ${said.trim().split('\n')[0]!.replace(/[.\s]+$/, '')}.`;
  if (/no op registered|could not find an implementation|not a registered function|unrecognized op/i.test(said)) {
    return `${prefix} The graph uses an operator this onnxruntime does not have: convert the model again with \`worldloom model:convert\`, or update Worldloom.`;
  }
  if (/external data|out of bounds|exceeds|file size|offset|length/i.test(said)) {
    return `${prefix} A weights file beside the graph (its external data) is shorter than the tensors the graph says it holds: copy or download the folder again, every file whole.`;
  }
  if (/protobuf parsing failed|parsefromstring|failed to load model|invalid model|no graph/i.test(said)) {
    return `${prefix} The graph is not a readable ONNX model (damaged, cut short, or another kind of file): convert the model again into an empty folder or download it again.`;
  }
  return `${prefix} Convert the model again into an empty folder, or download it again.`;
}
