// LM Studio's and Ollama's model folders laid out as those apps write them, found and named.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findLocalGgufModels } from './local-models';

const home = mkdtempSync(join(tmpdir(), 'worldloom-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const put = (path: string, text = 'GGUF'): string => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
};

describe('local GGUF models', () => {
  it('lists LM Studio files (first split part only, no projectors) and Ollama models by name:tag', () => {
    const repo = join(home, '.lmstudio', 'models', 'unsloth', 'Qwen-AgentWorld-35B-A3B-GGUF');
    const single = put(join(repo, 'Qwen-AgentWorld-35B-A3B-Q4_K_M.gguf'));
    const first = put(join(repo, 'Q8_0', 'Qwen-AgentWorld-35B-A3B-Q8_0-00001-of-00002.gguf'));
    put(join(repo, 'Q8_0', 'Qwen-AgentWorld-35B-A3B-Q8_0-00002-of-00002.gguf'));
    put(join(repo, 'mmproj-F16.gguf'));
    const older = put(join(home, '.cache', 'lm-studio', 'models', 'a', 'b', 'small.gguf'));

    const blobs = join(home, '.ollama', 'models', 'blobs');
    const model = put(join(blobs, 'sha256-aaaa'), 'GGUF weights');
    put(join(blobs, 'sha256-bbbb'), 'license text');
    const manifest = { layers: [{ mediaType: 'application/vnd.ollama.image.license', digest: 'sha256:bbbb' }, { mediaType: 'application/vnd.ollama.image.model', digest: 'sha256:aaaa' }] };
    put(join(home, '.ollama', 'models', 'manifests', 'registry.ollama.ai', 'library', 'qwen-agentworld', '35b-q5'), JSON.stringify(manifest));
    put(join(home, '.ollama', 'models', 'manifests', 'registry.ollama.ai', 'someone', 'other', 'latest'), '{ not json');

    const found = findLocalGgufModels(home);
    expect(found.map(({ path, name, source }) => ({ path, name, source })).sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: older, name: 'a/b/small.gguf', source: 'LM Studio' },
      { path: model, name: 'qwen-agentworld:35b-q5', source: 'Ollama' },
      { path: single, name: 'unsloth/Qwen-AgentWorld-35B-A3B-GGUF/Qwen-AgentWorld-35B-A3B-Q4_K_M.gguf', source: 'LM Studio' },
      { path: first, name: 'unsloth/Qwen-AgentWorld-35B-A3B-GGUF/Q8_0/Qwen-AgentWorld-35B-A3B-Q8_0-00001-of-00002.gguf', source: 'LM Studio' },
    ].sort((a, b) => a.path.localeCompare(b.path)));
    expect(found.find((m) => m.source === 'Ollama')!.bytes).toBe('GGUF weights'.length);
  });

  it('finds nothing, without failing, where neither app is installed', () => {
    expect(findLocalGgufModels(join(home, 'nobody'))).toEqual([]);
  });
});
