// LM Studio's and Ollama's model folders laid out as those apps write them, found and named.
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NANO_GGUF, writeLoraAdapter } from '../../testing/lora-fixture';
import { OLLAMA_LINUX_SERVICE_FOLDER, findLocalGgufModels, modelFolders } from './local-models';

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

    const { models: found, unreadable } = findLocalGgufModels({ home, env: {}, platform: 'darwin' });
    expect(unreadable).toEqual([]);
    expect(found.map(({ path, name, source }) => ({ path, name, source })).sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: older, name: 'a/b/small.gguf', source: 'LM Studio' },
      { path: model, name: 'qwen-agentworld:35b-q5', source: 'Ollama' },
      { path: single, name: 'unsloth/Qwen-AgentWorld-35B-A3B-GGUF/Qwen-AgentWorld-35B-A3B-Q4_K_M.gguf', source: 'LM Studio' },
      { path: first, name: 'unsloth/Qwen-AgentWorld-35B-A3B-GGUF/Q8_0/Qwen-AgentWorld-35B-A3B-Q8_0-00001-of-00002.gguf', source: 'LM Studio' },
    ].sort((a, b) => a.path.localeCompare(b.path)));
    expect(found.find((m) => m.source === 'Ollama')!.bytes).toBe('GGUF weights'.length);
  });

  it.skipIf(!existsSync(NANO_GGUF))('lists LoRA adapters apart from models, with the architecture they adapt, from their header', () => {
    const place = mkdtempSync(join(tmpdir(), 'worldloom-adapters-'));
    try {
      const repo = join(place, '.lmstudio', 'models', 'me', 'nano-tuned');
      mkdirSync(repo, { recursive: true });
      const base = join(repo, 'nano.gguf');
      copyFileSync(NANO_GGUF, base);
      const lora = writeLoraAdapter(join(repo, 'nano-terminal-lora.gguf')).path;
      // Ollama keeps an ADAPTER line's file as its own layer beside the base model's.
      const blobs = join(place, '.ollama', 'models', 'blobs');
      const ollamaBase = join(blobs, 'sha256-1111');
      const ollamaLora = join(blobs, 'sha256-2222');
      mkdirSync(blobs, { recursive: true });
      copyFileSync(NANO_GGUF, ollamaBase);
      writeLoraAdapter(ollamaLora);
      const layers = [{ mediaType: 'application/vnd.ollama.image.model', digest: 'sha256:1111' }, { mediaType: 'application/vnd.ollama.image.adapter', digest: 'sha256:2222' }];
      put(join(place, '.ollama', 'models', 'manifests', 'registry.ollama.ai', 'library', 'nano-terminal', 'latest'), JSON.stringify({ layers }));

      const found = findLocalGgufModels({ home: place, env: {}, platform: 'darwin' });
      expect(found.models.map(({ path, name }) => ({ path, name }))).toEqual([
        { path: base, name: 'me/nano-tuned/nano.gguf' },
        { path: ollamaBase, name: 'nano-terminal:latest' },
      ]);
      expect(found.adapters.map(({ path, name, source, architecture }) => ({ path, name, source, architecture }))).toEqual([
        { path: lora, name: 'me/nano-tuned/nano-terminal-lora.gguf', source: 'LM Studio', architecture: 'qwen35moe' },
        { path: ollamaLora, name: 'nano-terminal:latest (adapter)', source: 'Ollama', architecture: 'qwen35moe' },
      ]);
    } finally {
      rmSync(place, { recursive: true, force: true });
    }
  });

  it('finds nothing, without failing, where neither app is installed', () => {
    expect(findLocalGgufModels({ home: join(home, 'nobody'), env: {}, platform: 'darwin' })).toEqual({ models: [], adapters: [], unreadable: [] });
  });

  it('reads OLLAMA_MODELS and the folder LM Studio settings name, and names a folder it cannot read', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'worldloom-ollama-'));
    const blob = put(join(elsewhere, 'blobs', 'sha256-cccc'), 'GGUF moved');
    put(
      join(elsewhere, 'manifests', 'hf.co', 'unsloth', 'qwen-agentworld-35b-a3b-gguf', 'Q4_K_M'),
      JSON.stringify({ layers: [{ mediaType: 'application/vnd.ollama.image.model', digest: 'sha256:cccc' }] }),
    );
    const lmsHome = mkdtempSync(join(tmpdir(), 'worldloom-lms-home-'));
    const downloads = join(lmsHome, 'Models on D');
    const custom = put(join(downloads, 'lmstudio-community', 'Qwen-GGUF', 'qwen-Q6_K.gguf'));
    put(join(lmsHome, '.lmstudio', 'settings.json'), JSON.stringify({ downloadsFolder: downloads }));
    const notAFolder = put(join(lmsHome, 'ollama-models-file'), 'oops');
    try {
      const found = findLocalGgufModels({ home: lmsHome, env: { OLLAMA_MODELS: elsewhere }, platform: 'win32' });
      expect(found.models.map(({ path, name, source }) => ({ path, name, source }))).toEqual([
        { path: custom, name: 'lmstudio-community/Qwen-GGUF/qwen-Q6_K.gguf', source: 'LM Studio' },
        { path: blob, name: 'hf.co/unsloth/qwen-agentworld-35b-a3b-gguf:Q4_K_M', source: 'Ollama' },
      ]);
      const wrong = findLocalGgufModels({ home: lmsHome, env: { OLLAMA_MODELS: notAFolder }, platform: 'win32' });
      expect(wrong.unreadable).toEqual([{ source: 'Ollama', folder: notAFolder, why: 'OLLAMA_MODELS', reason: 'it is a file, not a folder' }]);
      if (process.getuid?.() !== 0) {
        // Root lists any folder, so the permission case is checked only as an ordinary user.
        chmodSync(elsewhere, 0o000);
        const denied = findLocalGgufModels({ home: lmsHome, env: { OLLAMA_MODELS: elsewhere }, platform: 'linux' });
        expect(denied.unreadable[0]).toMatchObject({ folder: elsewhere, reason: expect.stringMatching(/permission denied/) });
        chmodSync(elsewhere, 0o755);
      }
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
      rmSync(lmsHome, { recursive: true, force: true });
    }
  });

  it("searches each OS's default folders, the Linux service's among them, and OLLAMA_MODELS first", () => {
    const on = (platform: NodeJS.Platform, env: Record<string, string> = {}) =>
      modelFolders({ home: '/home/ada', env, platform }).map((f) => `${f.source}: ${f.folder}`);
    expect(on('linux', { OLLAMA_MODELS: '~/big-disk/ollama' })).toEqual([
      'LM Studio: /home/ada/.lmstudio/models',
      'LM Studio: /home/ada/.cache/lm-studio/models',
      'Ollama: /home/ada/big-disk/ollama',
      'Ollama: /home/ada/.ollama/models',
      `Ollama: ${OLLAMA_LINUX_SERVICE_FOLDER}`,
    ]);
    expect(on('darwin')).not.toContain(`Ollama: ${OLLAMA_LINUX_SERVICE_FOLDER}`);
    expect(on('darwin')).toContain('Ollama: /home/ada/.ollama/models');
  });
});
