// Handlers for the perturbation part of the contract (contract/perturbation.ts).
import { join } from 'node:path';
import { z } from 'zod';
import type { perturbationApi } from '../contract/perturbation';
import { perturbationCatalog, type PerturbationRegistry } from '../perturbations/registry';
import { loadUserPerturbations } from '../perturbations/user-file';
import { generationParameters } from '../simulation/generation-parameters';
import { perturbStep } from '../simulation/perturb-step';
import type { WorkspaceStore } from '../store/workspace-store';
import type { HandlersOf, Studio } from './studio';

/** The workspace keeps its own perturbation file in its settings, so it travels with it. */
export const USER_PERTURBATIONS_SETTING = 'perturbations.user-file';
const USER_FILE_NAME = 'workspace perturbations';

/** The catalog plus the kinds of the workspace's own file (a file that fails to load adds none). */
export function workspaceRegistry(store: WorkspaceStore | null): PerturbationRegistry {
  const text = store?.getSetting(USER_PERTURBATIONS_SETTING);
  if (!text) return perturbationCatalog;
  const loaded = loadUserPerturbations(text, USER_FILE_NAME);
  return loaded.ok ? perturbationCatalog.withKinds(loaded.kinds) : perturbationCatalog;
}

export function perturbationHandlers(studio: Studio): HandlersOf<typeof perturbationApi> {
  const running = new Map<string, AbortController>();
  const report = (text: string) => {
    if (!text.trim()) return { ok: true, kinds: 0, message: 'No workspace perturbations yet.', problems: [] };
    const loaded = loadUserPerturbations(text, USER_FILE_NAME);
    return loaded.ok
      ? { ok: true, kinds: loaded.kinds.length, message: `${loaded.kinds.length} perturbation kind(s) loaded.`, problems: [] }
      : { ok: false, kinds: 0, message: loaded.message, problems: loaded.problems };
  };
  return {
    'perturb.catalog': ({ domain }) => {
      const registry = workspaceRegistry(studio.workspace);
      return (domain ? registry.byDomain(domain) : registry.list()).map((k) => ({
        id: k.id,
        domain: k.domain,
        label: k.label,
        description: k.description,
        source: k.source,
        defaults: k.params.parse({}) as Record<string, unknown>,
        paramsSchema: z.toJSONSchema(k.params as z.ZodType, { unrepresentable: 'any' }) as Record<string, unknown>,
      }));
    },
    'perturb.run': async ({ jobId, nodeId, mode, kinds, seed, sampling }) => {
      const store = studio.requireStore();
      // Instruction mode simulates with the same settings as simulate; transform mode ignores them.
      const resolved = generationParameters(studio.models.current, store).resolve(sampling);
      const controller = new AbortController();
      running.set(jobId, controller);
      try {
        const label = kinds.length > 1 ? `Sweeping ${kinds.length} perturbations` : 'Perturbing';
        const result = await perturbStep(
          store,
          studio.models.current,
          { builtinDir: join(studio.extras.resourcesDir, 'prompts') },
          workspaceRegistry(store),
          { nodeId, mode, kinds, seed, sampling: resolved },
          (done, total) => studio.emit('job.progress', { jobId, label, done, total, finished: done === total }),
          controller.signal,
        );
        if (result.nodes.length) studio.emit('workspace.changed', { reason: 'perturbed', trajectoryId: result.nodes[0]!.trajectoryId });
        return result;
      } finally {
        running.delete(jobId);
      }
    },
    'perturb.cancel': ({ jobId }) => {
      const controller = running.get(jobId);
      controller?.abort();
      return { cancelled: controller !== undefined };
    },
    'perturb.userFile': () => {
      const text = studio.requireStore().getSetting(USER_PERTURBATIONS_SETTING) ?? '';
      return { text, ...report(text) };
    },
    'perturb.setUserFile': ({ text }) => {
      const result = report(text);
      if (result.ok) studio.requireStore().setSetting(USER_PERTURBATIONS_SETTING, text);
      return result;
    },
    'trajectory.setWorldSpec': ({ id, worldSpec }) => {
      studio.requireStore().setWorldSpec(id, worldSpec);
      studio.emit('workspace.changed', { reason: 'world-spec', trajectoryId: id });
      return { id };
    },
  };
}
