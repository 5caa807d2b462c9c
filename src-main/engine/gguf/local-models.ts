// GGUF models the user already has from LM Studio and Ollama (both run llama.cpp), listed in
// the model panel so they open without a second download. LM Studio keeps plain .gguf files
// under publisher/repository folders; Ollama keeps content-addressed blobs that its manifests
// name. Only what is cheap to find is read: folder listings and small manifest files.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, sep } from 'node:path';

export interface LocalGgufModel {
  path: string;
  /** "publisher/repository/file.gguf" for LM Studio, "name:tag" for Ollama. */
  name: string;
  source: 'LM Studio' | 'Ollama';
  bytes: number;
}

const SPLIT_PART = /-(\d{5})-of-(\d{5})\.gguf$/i;
const OLLAMA_MODEL_LAYER = 'application/vnd.ollama.image.model';

function entries(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** .gguf files up to `depth` folders down, without projectors and without split parts after the first. */
function ggufFilesUnder(root: string, depth: number): string[] {
  const found: string[] = [];
  const walk = (folder: string, left: number): void => {
    for (const name of entries(folder)) {
      const path = join(folder, name);
      if (/\.gguf$/i.test(name)) {
        const part = SPLIT_PART.exec(name);
        if (!/^mmproj/i.test(name) && (!part || Number(part[1]) === 1)) found.push(path);
      } else if (left > 0 && !name.startsWith('.')) {
        try {
          if (statSync(path).isDirectory()) walk(path, left - 1);
        } catch {
          // unreadable: skip
        }
      }
    }
  };
  walk(root, depth);
  return found;
}

function lmStudio(home: string): LocalGgufModel[] {
  const roots = [join(home, '.lmstudio', 'models'), join(home, '.cache', 'lm-studio', 'models')];
  return roots.flatMap((root) =>
    ggufFilesUnder(root, 3).map((path) => ({ path, name: relative(root, path).split(sep).join('/'), source: 'LM Studio' as const, bytes: sizeOf(path) })),
  );
}

function ollama(home: string): LocalGgufModel[] {
  const models = join(home, '.ollama', 'models');
  const manifests = join(models, 'manifests');
  const out: LocalGgufModel[] = [];
  // manifests/<registry>/<namespace>/<model>/<tag>
  for (const registry of entries(manifests)) {
    for (const namespace of entries(join(manifests, registry))) {
      for (const model of entries(join(manifests, registry, namespace))) {
        for (const tag of entries(join(manifests, registry, namespace, model))) {
          const file = join(manifests, registry, namespace, model, tag);
          let layers: { mediaType?: string; digest?: string }[] = [];
          try {
            if (sizeOf(file) > 1_000_000) continue;
            layers = (JSON.parse(readFileSync(file, 'utf8')) as { layers?: typeof layers }).layers ?? [];
          } catch {
            continue;
          }
          const digest = layers.find((layer) => layer.mediaType === OLLAMA_MODEL_LAYER)?.digest;
          if (!digest || !/^sha256:[0-9a-f]+$/.test(digest)) continue;
          const path = join(models, 'blobs', digest.replace(':', '-'));
          if (!existsSync(path)) continue;
          const prefix = registry === 'registry.ollama.ai' && namespace === 'library' ? '' : `${registry === 'registry.ollama.ai' ? '' : `${registry}/`}${namespace}/`;
          out.push({ path, name: `${prefix}${model}:${tag}`, source: 'Ollama', bytes: sizeOf(path) });
        }
      }
    }
  }
  return out;
}

/** LM Studio's and Ollama's GGUF models in `home` (default: the user's home folder). */
export function findLocalGgufModels(home = homedir()): LocalGgufModel[] {
  return [...lmStudio(home), ...ollama(home)];
}
