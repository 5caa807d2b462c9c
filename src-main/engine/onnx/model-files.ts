// The small text files of a model folder (tokenizer, configs, chat template), read only from
// inside the folder. A downloaded folder may hold links: one that points outside it (at
// /etc/shadow, at a key) is refused, as model.onnx is (genai-config.ts), and no error ever
// quotes a file's content, so a link cannot make an error message read a secret out.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { EngineError } from '../../common/engine';

const outside = (root: string, target: string): boolean => {
  const rel = relative(root, target);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel);
};

/** The text of `path` (a file in a model folder), or null when there is none; refuses links out of its folder. */
export function modelFileText(path: string): string | null {
  if (!existsSync(path)) return null;
  const folder = dirname(path);
  const real = realpathSync(path);
  if (outside(realpathSync(folder), real)) {
    throw new EngineError(`${path} is a link to a file outside the model folder; it is not read. Copy the file into the folder instead of linking to it.`, 'model-corrupt');
  }
  if (!statSync(real).isFile()) throw new EngineError(`${path} is not a file.`, 'model-corrupt');
  return readFileSync(real, 'utf8');
}

/** JSON.parse whose error says where, never what (V8's message quotes the text). */
export function parseModelJson(text: string, path: string, what = 'fix or replace it'): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EngineError(`${path} is not valid JSON; ${what}.`, 'model-corrupt');
  }
}

/** A model folder's JSON file, or null when absent. */
export function readModelJson(folder: string, name: string): unknown {
  const path = join(folder, name);
  const text = modelFileText(path);
  return text === null ? null : parseModelJson(text, path);
}
