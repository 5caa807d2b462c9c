import { afterAll, describe, expect, it } from 'vitest';
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
});
