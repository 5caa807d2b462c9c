// Hostile model folders: links out of the folder in place of the tokenizer, its config, the
// generation config, the chat template and config.json, pointing at a secret. None is read,
// and no error quotes what the outside file holds.
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../common/engine';
import { ChatTokenizer } from './chat-tokenizer';
import { readGenerationConfig } from './generation-config';
import { modelFileText, modelIdentity } from './model-files';
import { OnnxEngine } from './onnx-engine';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'qwen35', 'hf');
const SECRET = 'root:$6$very-secret-hash:19000:0:99999:7:::';

function folderWithLink(name: string): { folder: string; secret: string } {
  const base = mkdtempSync(join(tmpdir(), 'wl-model-links-'));
  const secret = join(base, 'shadow');
  writeFileSync(secret, SECRET);
  const folder = join(base, 'model');
  mkdirSync(folder);
  for (const file of readdirSync(FIXTURE)) if (/\.(json|jinja)$/.test(file)) copyFileSync(join(FIXTURE, file), join(folder, file));
  rmSync(join(folder, name), { force: true });
  symlinkSync(secret, join(folder, name));
  return { folder, secret };
}

const message = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    return (error as Error).message;
  }
  return '';
};

describe('model folder files', () => {
  it.each(['tokenizer.json', 'tokenizer_config.json'])('refuses %s linked out of the folder, without quoting it', (name) => {
    const { folder } = folderWithLink(name);
    const said = message(() => ChatTokenizer.load(join(folder, 'tokenizer.json'), join(folder, 'tokenizer_config.json')));
    expect(said).toMatch(new RegExp(`${name.replace('.', '\\.')} is a link to a file outside the model folder; it is not read`));
    expect(said).not.toContain('root:');
  });

  it('refuses generation_config.json and chat_template.jinja linked out of the folder', () => {
    expect(message(() => readGenerationConfig(folderWithLink('generation_config.json').folder))).toMatch(/generation_config\.json is a link to a file outside/);
    const { folder } = folderWithLink('chat_template.jinja');
    expect(() => modelFileText(join(folder, 'chat_template.jinja'))).toThrow(/chat_template\.jinja is a link to a file outside the model folder/);
    expect(() => modelFileText(join(folderWithLink('config.json').folder, 'config.json'))).toThrow(/config\.json is a link to a file outside/);
  });

  it('says a file is not JSON without quoting its text', () => {
    const base = mkdtempSync(join(tmpdir(), 'wl-model-bad-'));
    writeFileSync(join(base, 'generation_config.json'), SECRET);
    const said = message(() => readGenerationConfig(base));
    expect(said).toMatch(/generation_config\.json is not valid JSON; fix or delete it/);
    expect(said).not.toContain('root:');
  });

  it('tells two folders of the same model type apart, and the same folder from itself', async () => {
    const tiny = join(import.meta.dirname, 'fixtures', 'qwen35', 'tiny-chat');
    const copy = join(mkdtempSync(join(tmpdir(), 'wl-model-copy-')), 'tiny-chat');
    cpSync(tiny, copy, { recursive: true });
    const a = await OnnxEngine.load(tiny, { providers: ['cpu'], intraOpThreads: 1 });
    const b = await OnnxEngine.load(copy, { providers: ['cpu'], intraOpThreads: 1 });
    try {
      expect(a.describe().modelId).toBe(b.describe().modelId);
      expect(a.describe().identity).toMatch(/^onnx:[0-9a-f]{32}$/);
      expect(a.describe().identity).not.toBe(b.describe().identity);
      expect(modelIdentity(tiny, [join(tiny, 'model.onnx')])).toBe(a.describe().identity);
    } finally {
      await a.dispose();
      await b.dispose();
    }
  });
});
