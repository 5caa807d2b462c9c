// The small text files of a model folder (tokenizer, configs, chat template), read only from
// inside the folder. A downloaded folder may hold links: one that points outside it (at
// /etc/shadow, at a key) is refused, as model.onnx is (genai-config.ts), and no error ever
// quotes a file's content, so a link cannot make an error message read a secret out.
import { createHash } from 'node:crypto';
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

/**
 * The folder and its graphs' sizes and modification times, hashed: the same model gets the
 * same identity, another folder of the same type (or new weights in this one) another.
 */
export function modelIdentity(folder: string, graphs: readonly string[]): string {
  const hash = createHash('sha256').update(realpathSync(folder));
  for (const graph of graphs) {
    for (const file of [graph, `${graph}.data`]) {
      if (!existsSync(file)) continue;
      const { size, mtimeMs } = statSync(file);
      hash.update(`\0${file}\0${size}\0${mtimeMs}`);
    }
  }
  return `onnx:${hash.digest('hex').slice(0, 32)}`;
}
