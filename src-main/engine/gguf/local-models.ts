// GGUF models the user already has from LM Studio and Ollama (both run llama.cpp), listed in
// the model panel so they open without a second download. LM Studio keeps plain .gguf files
// under publisher/repository folders; Ollama keeps content-addressed blobs that its manifests
// name. Only what is cheap to find is read: folder listings, small manifest files and the first
// keys of each file's header, whose general.type tells a LoRA adapter from a model: adapters are
// listed apart (with the architecture they adapt), to be opened over a base model, not as one.
//
// Where each app keeps its models (the folders both apps document, on every OS):
// - Ollama: $OLLAMA_MODELS when set, else ~/.ollama/models (macOS, Windows, Linux), and on Linux
//   also the system service's folder, /usr/share/ollama/.ollama/models (the install script runs
//   Ollama as its own user with that home).
// - LM Studio: the folder its settings name (~/.lmstudio/settings.json "downloadsFolder"), the
//   home a ~/.lmstudio-home-pointer file points to, ~/.lmstudio/models and the older
//   ~/.cache/lm-studio/models.
// A folder that exists but cannot be listed is reported with the reason, so the panel can say
// why models the user knows are there do not show (the service folder is often another user's).

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { readGgufGeneralType } from './gguf-general-type';

export type LocalModelSource = 'LM Studio' | 'Ollama';

export interface LocalGgufModel {
  path: string;
  /** "publisher/repository/file.gguf" for LM Studio, "name:tag" for Ollama. */
  name: string;
  source: LocalModelSource;
  bytes: number;
}

/** A LoRA adapter file (general.type "adapter") found beside the models: opened with --adapter over a base model. */
export interface LocalGgufAdapter extends LocalGgufModel {
  /** general.architecture: the base models it can be opened over. */
  architecture: string;
}

export interface ModelFolder {
  source: LocalModelSource;
  folder: string;
  /** Why this folder is searched, in the user's words ("OLLAMA_MODELS", "the Linux service's folder"…). */
  why: string;
}

export interface UnreadableFolder extends ModelFolder {
  reason: string;
}

export interface LocalGgufSearch {
  models: LocalGgufModel[];
  /** LoRA adapters, apart from the models. */
  adapters: LocalGgufAdapter[];
  /** Folders that exist but could not be read, with the reason. */
  unreadable: UnreadableFolder[];
}

export interface SearchPlace {
  home?: string;
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
}

const SPLIT_PART = /-(\d{5})-of-(\d{5})\.gguf$/i;
const OLLAMA_MODEL_LAYER = 'application/vnd.ollama.image.model';
const OLLAMA_ADAPTER_LAYER = 'application/vnd.ollama.image.adapter';
export const OLLAMA_LINUX_SERVICE_FOLDER = '/usr/share/ollama/.ollama/models';

function readText(path: string): string | null {
  try {
    return statSync(path).size < 1_000_000 ? readFileSync(path, 'utf8') : null;
  } catch {
    return null;
  }
}

/** Every folder searched, in order, without duplicates; absent ones included (they are skipped quietly). */
export function modelFolders({ home = homedir(), env = process.env, platform = process.platform }: SearchPlace = {}): ModelFolder[] {
  const folders: ModelFolder[] = [];
  const add = (source: LocalModelSource, folder: string | undefined, why: string): void => {
    if (!folder?.trim()) return;
    const path = resolve(folder.trim().replace(/^~(?=$|[\\/])/, home));
    if (!folders.some((f) => f.folder === path)) folders.push({ source, folder: path, why });
  };

  const settings = readText(join(home, '.lmstudio', 'settings.json'));
  if (settings) {
    try {
      const downloads = (JSON.parse(settings) as { downloadsFolder?: unknown }).downloadsFolder;
      if (typeof downloads === 'string') add('LM Studio', downloads, "LM Studio's models folder setting");
    } catch {
      // A settings file LM Studio is writing, or not JSON: the default folders are still searched.
    }
  }
  const pointer = readText(join(home, '.lmstudio-home-pointer'))?.trim();
  if (pointer) add('LM Studio', join(pointer, 'models'), 'the LM Studio home ~/.lmstudio-home-pointer names');
  add('LM Studio', join(home, '.lmstudio', 'models'), "LM Studio's default folder");
  add('LM Studio', join(home, '.cache', 'lm-studio', 'models'), "LM Studio's older default folder");

  add('Ollama', env.OLLAMA_MODELS, 'OLLAMA_MODELS');
  add('Ollama', join(home, '.ollama', 'models'), "Ollama's default folder");
  if (platform === 'linux') add('Ollama', OLLAMA_LINUX_SERVICE_FOLDER, "the Linux service's folder");
  return folders;
}

class FolderReader {
  readonly unreadable: UnreadableFolder[] = [];
  constructor(private readonly place: ModelFolder) {}

  /** The folder's entries; [] when absent, and [] plus a report when it exists but cannot be listed. */
  entries(folder: string, report = false): string[] {
    try {
      return readdirSync(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (report && code !== 'ENOENT') {
        const reason =
          code === 'EACCES' || code === 'EPERM'
            ? 'permission denied: this user may not list it (add yourself to its group, or set OLLAMA_MODELS / move the models where you can read them)'
            : code === 'ENOTDIR'
              ? 'it is a file, not a folder'
              : `it could not be listed (${code ?? String(error)})`;
        this.unreadable.push({ ...this.place, folder, reason });
      }
      return [];
    }
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
function ggufFilesUnder(reader: FolderReader, root: string, depth: number): string[] {
  const found: string[] = [];
  const walk = (folder: string, left: number): void => {
    for (const name of reader.entries(folder, folder === root)) {
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

function lmStudio(reader: FolderReader, root: string): LocalGgufModel[] {
  return ggufFilesUnder(reader, root, 3).map((path) => ({ path, name: relative(root, path).split(sep).join('/'), source: 'LM Studio' as const, bytes: sizeOf(path) }));
}

/** A file found, and whether the Ollama manifest lists it as an adapter layer. */
type Found = LocalGgufModel & { adapterLayer?: true };

function ollama(reader: FolderReader, models: string): Found[] {
  const manifests = join(models, 'manifests');
  const out: Found[] = [];
  if (reader.entries(models, true).length === 0) return out;
  // manifests/<registry>/<namespace>/<model>/<tag>
  for (const registry of reader.entries(manifests, true)) {
    for (const namespace of reader.entries(join(manifests, registry))) {
      for (const model of reader.entries(join(manifests, registry, namespace))) {
        for (const tag of reader.entries(join(manifests, registry, namespace, model))) {
          let layers: { mediaType?: string; digest?: string }[] = [];
          try {
            layers = (JSON.parse(readText(join(manifests, registry, namespace, model, tag)) ?? '') as { layers?: typeof layers }).layers ?? [];
          } catch {
            continue;
          }
          const prefix = registry === 'registry.ollama.ai' && namespace === 'library' ? '' : `${registry === 'registry.ollama.ai' ? '' : `${registry}/`}${namespace}/`;
          // A model made with an ADAPTER line keeps the adapter as its own layer: it is listed too.
          for (const mediaType of [OLLAMA_MODEL_LAYER, OLLAMA_ADAPTER_LAYER]) {
            const digest = layers.find((layer) => layer.mediaType === mediaType)?.digest;
            if (!digest || !/^sha256:[0-9a-f]+$/.test(digest)) continue;
            const path = join(models, 'blobs', digest.replace(':', '-'));
            if (!existsSync(path)) continue;
            const adapter = mediaType === OLLAMA_ADAPTER_LAYER;
            out.push({ path, name: `${prefix}${model}:${tag}${adapter ? ' (adapter)' : ''}`, source: 'Ollama', bytes: sizeOf(path), ...(adapter ? { adapterLayer: true as const } : {}) });
          }
        }
      }
    }
  }
  return out;
}

/** LM Studio's and Ollama's GGUF models and LoRA adapters on this machine, and the folders that could not be read. */
export function findLocalGgufModels(place: SearchPlace = {}): LocalGgufSearch {
  const search: LocalGgufSearch = { models: [], adapters: [], unreadable: [] };
  for (const folder of modelFolders(place)) {
    const reader = new FolderReader(folder);
    const found: Found[] = folder.source === 'Ollama' ? ollama(reader, folder.folder) : lmStudio(reader, folder.folder);
    for (const { adapterLayer, ...file } of found) {
      if (search.models.some((m) => m.path === file.path) || search.adapters.some((a) => a.path === file.path)) continue;
      // A file whose header cannot be read is listed as a model: opening it says what is wrong.
      const kind = readGgufGeneralType(file.path);
      if (kind?.type === 'adapter' || adapterLayer) search.adapters.push({ ...file, architecture: kind?.architecture ?? 'unknown' });
      else search.models.push(file);
    }
    search.unreadable.push(...reader.unreadable);
  }
  return search;
}
