// Renders a model's chat template off the main thread, within limits. A chat template is
// code that comes with a downloaded model: a loop in it must not hang the app's main
// process, and one that builds an enormous string must not eat the machine's memory. The
// template runs in a worker thread with a heap cap; a render that takes too long ends the
// worker (a fresh one serves the next render), and output beyond a size cap is refused.

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { EngineError } from '../../common/engine';

export interface TemplateLimits {
  /** Longest a render may take. Default 10 s. */
  timeoutMs?: number;
  /** Longest rendered text, in characters. Default 32 Mi. */
  maxChars?: number;
  /** Heap cap of the rendering thread. Default 256 MiB. */
  maxHeapMb?: number;
}

type RenderReply = { ok: true; text: string } | { ok: false; error: string };

// CommonJS run by the worker (eval: true): no file to locate inside an app bundle.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Template } = require(workerData.jinja);
// Parsed here, not in the host: a 20 MB template takes seconds to parse.
let template = null;
let parseError = null;
try {
  template = new Template(workerData.source);
} catch (error) {
  parseError = 'it does not parse (' + String(error && error.message || error) + ')';
}
parentPort.on('message', (context) => {
  if (parseError) {
    parentPort.postMessage({ ok: false, error: parseError });
    return;
  }
  try {
    const text = template.render(context);
    parentPort.postMessage(text.length > workerData.maxChars
      ? { ok: false, error: 'its output passed ' + workerData.maxChars + ' characters' }
      : { ok: true, text });
  } catch (error) {
    parentPort.postMessage({ ok: false, error: String(error && error.message || error) });
  }
});
`;

export class TemplateSandbox {
  private worker: Worker | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly limits: Required<TemplateLimits>;

  constructor(
    private readonly source: string,
    private readonly where: string,
    limits: TemplateLimits = {},
  ) {
    this.limits = { timeoutMs: 10_000, maxChars: 32 * 1024 * 1024, maxHeapMb: 256, ...limits };
  }

  /** Renders with `context` as the template's variables; one render at a time. */
  render(context: Record<string, unknown>): Promise<string> {
    const run = this.queue.then(() => this.renderNow(context));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { source: this.source, jinja: createRequire(import.meta.url).resolve('@huggingface/jinja'), maxChars: this.limits.maxChars },
      resourceLimits: { maxOldGenerationSizeMb: this.limits.maxHeapMb, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    });
    // A worker ended for its time can still report running out of heap before it stops; an
    // 'error' event nobody listens to would end the whole process. A render in flight has
    // its own listener and turns the error into that render's error.
    worker.on('error', () => undefined);
    worker.unref();
    return worker;
  }

  private renderNow(context: Record<string, unknown>): Promise<string> {
    const worker = (this.worker ??= this.start());
    const fail = (why: string): EngineError =>
      new EngineError(`The chat template in ${this.where} could not be rendered: ${why}.`, 'model-corrupt');
    return new Promise<string>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        worker.unref();
      };
      const discard = (): void => {
        if (this.worker === worker) this.worker = null;
        void worker.terminate();
      };
      const onMessage = (reply: RenderReply): void => {
        done();
        if (reply.ok) resolve(reply.text);
        else reject(fail(reply.error));
      };
      const onError = (error: Error & { code?: string }): void => {
        done();
        discard();
        reject(fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `it used more than ${this.limits.maxHeapMb} MiB` : error.message));
      };
      const onExit = (): void => {
        done();
        discard();
        reject(fail('the rendering thread stopped'));
      };
      const timer = setTimeout(() => {
        done();
        discard();
        reject(fail(`it ran longer than ${this.limits.timeoutMs / 1000} s (a loop that does not end?)`));
      }, this.limits.timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.ref();
      worker.postMessage(context);
    });
  }
}
