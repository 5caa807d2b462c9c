import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { EngineError } from '../../common/engine';
import { TemplateSandbox } from './template-sandbox';

describe('TemplateSandbox', () => {
  const sandboxes: TemplateSandbox[] = [];
  const sandbox = (source: string, limits = {}): TemplateSandbox => {
    const made = new TemplateSandbox(source, 'test/tokenizer_config.json', limits);
    sandboxes.push(made);
    return made;
  };
  afterAll(async () => {
    for (const made of sandboxes) await made.close();
  });

  it('renders with the variables it is given', async () => {
    const chat = sandbox("{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}{% if enable_thinking is false %}off{% endif %}");
    await expect(chat.render({ messages: [{ role: 'user', content: 'hi' }] })).resolves.toBe('<user>hi');
    await expect(chat.render({ messages: [], enable_thinking: false })).resolves.toBe('off');
  });

  it('ends a template that loops too long, and the next render still works', async () => {
    const looping = sandbox(
      "{% if spin %}{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}{% endif %}done",
      { timeoutMs: 300 },
    );
    const error = await looping.render({ spin: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toMatch(/test\/tokenizer_config\.json could not be rendered: it ran longer than 0\.3 s/);
    await expect(looping.render({ spin: false })).resolves.toBe('done');
  });

  it('refuses output beyond the size cap', async () => {
    const huge = sandbox("{% for i in range(n) %}xxxxxxxxxx{% endfor %}", { maxChars: 1000 });
    await expect(huge.render({ n: 50 })).resolves.toHaveLength(500);
    await expect(huge.render({ n: 500 })).rejects.toThrow(/its output passed 1000 characters/);
  });

  it('says why a template fails', async () => {
    const broken = sandbox("{{ raise_exception('no tools here') }}");
    await expect(broken.render({ raise_exception: undefined })).rejects.toThrow(/could not be rendered/);
  });

  it('keeps the process alive when a timed-out template runs out of heap, and serves the next render', async () => {
    // The list grows until the worker reaches its heap cap, around the time the render times
    // out (here 16 MiB: between 0.3 and 0.6 s on this machine). A worker that dies after its
    // render gave up must not raise an 'error' event nobody hears, which would end the process.
    const source = '{% set ns = namespace(l=[]) %}{% if spin %}{% for i in range(100000000) %}{% set ns.l = ns.l + [i] %}{% endfor %}{% endif %}ok';
    for (const timeoutMs of [200, 300, 400, 500, 600]) {
      const bomb = sandbox(source, { timeoutMs, maxHeapMb: 16 });
      await expect(bomb.render({ spin: false })).resolves.toBe('ok');
      // The worker itself is private; the test holds it to know when it has really ended.
      const worker = (bomb as unknown as { worker: Worker }).worker;
      let exited = false;
      worker.once('exit', () => (exited = true));
      await expect(bomb.render({ spin: true })).rejects.toThrow(/could not be rendered: (it ran longer than|it used more than 16 MiB)/);
      // Whatever the dying worker reports on its way out (its heap cap) has been reported by now.
      await vi.waitFor(() => expect(exited).toBe(true), { timeout: 10_000, interval: 10 });
      await expect(bomb.render({ spin: false })).resolves.toBe('ok');
    }
  });

  it('parses the template in its worker and says when it does not parse', async () => {
    const broken = sandbox('{% for %}');
    await expect(broken.render({})).rejects.toThrow(/could not be rendered: it does not parse/);
  });
});
