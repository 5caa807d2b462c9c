// A hostile tokenizer.json: a pre-tokenizer pattern that backtracks catastrophically. It is
// refused when the tokenizer loads, before any prompt reaches it; the tokenizers of real
// models (Qwen3.5, the bundled model, Llama) load as before.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESOURCES_DIR } from '../../testing/paths';
import { EngineError } from '../../common/engine';
import { ChatTokenizer } from './chat-tokenizer';
import { backtrackingProblem } from './tokenizer-patterns';

const FIXTURES = join(import.meta.dirname, 'fixtures');

function hostileFolder(pattern: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'wl-tokenizer-'));
  const json = JSON.parse(readFileSync(join(FIXTURES, 'qwen35/hf/tokenizer.json'), 'utf8')) as { pre_tokenizer: unknown };
  json.pre_tokenizer = { type: 'Sequence', pretokenizers: [{ type: 'Split', pattern: { Regex: pattern }, behavior: 'Isolated', invert: false }, { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false }] };
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(json));
  copyFileSync(join(FIXTURES, 'qwen35/hf/tokenizer_config.json'), join(dir, 'tokenizer_config.json'));
  return dir;
}

describe('tokenizer patterns', () => {
  it.each([
    ['(a|a)+$', /exponential/],
    ['(a+)+b', /nested unbounded repeats/],
    ['\\s*\\s*\\s*$', /adjacent unbounded repeats/],
  ])('refuses a tokenizer.json whose Split pattern is %s, saying which and why', (pattern, why) => {
    const dir = hostileFolder(pattern);
    let error: unknown;
    try {
      ChatTokenizer.load(join(dir, 'tokenizer.json'), join(dir, 'tokenizer_config.json'));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toMatch(/tokenizer\.json cannot be used: its pattern \/.*\/ is refused: /);
    expect((error as EngineError).message).toMatch(why);
  });

  it('loads the tokenizers of real models, whose patterns are at worst quadratic on a run of spaces', async () => {
    for (const folder of [join(FIXTURES, 'qwen35/hf'), join(FIXTURES, 'tiny-llama'), join(RESOURCES_DIR, 'models/worldloom-nano')]) {
      const tokenizer = ChatTokenizer.load(join(folder, 'tokenizer.json'), join(folder, 'tokenizer_config.json'));
      expect(tokenizer.encode('hello world').length).toBeGreaterThan(0);
      await tokenizer.close();
    }
  });

  it('tells a linear pattern from a catastrophic one', () => {
    expect(backtrackingProblem(/\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*/gu)).toBeNull();
    expect(backtrackingProblem(/(ab|cd)+x/gu)).toBeNull();
    expect(backtrackingProblem(/(a|ab)*c/gu)).toMatch(/can start with the same character/);
  });
});
