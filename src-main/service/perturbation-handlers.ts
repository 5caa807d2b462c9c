// Handlers for the perturbation part of the contract (contract/perturbation.ts).
import { join } from 'node:path';
import { z } from 'zod';
import type { perturbationApi } from '../common/contract/perturbation';
import { loadUserPerturbations } from '../common/perturbations/user-file';
import { generationParameters } from '../simulation/generation-parameters';
import { perturbStep } from '../simulation/perturb-step';
import { USER_FILE_NAME, USER_PERTURBATIONS_SETTING, workspaceRegistry } from '../simulation/workspace-perturbations';
import type { HandlersOf, Studio } from './studio';

export function perturbationHandlers(studio: Studio): HandlersOf<typeof perturbationApi> {
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
    'perturb.run': ({ jobId, nodeId, mode, kinds, seed, sampling }) => {
      const store = studio.requireStore();
      // Instruction mode simulates with the same settings as simulate; transform mode ignores them.
      const resolved = generationParameters(studio.models.current, store).resolve(sampling);
      const label = kinds.length > 1 ? `Sweeping ${kinds.length} perturbations` : 'Perturbing';
      return studio.jobs.start('perturb', label, async (job) => {
        const result = await perturbStep(
          store,
          studio.models.current,
          { builtinDir: join(studio.extras.resourcesDir, 'prompts') },
          workspaceRegistry(store),
          { nodeId, mode, kinds, seed, sampling: resolved },
          (done, total) => job.progress(done, total),
          job.signal,
        );
        studio.announceNodesAdded('perturbed', result.nodes);
        return result;
      }, jobId);
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
      const store = studio.requireStore();
      store.setWorldSpec(id, worldSpec);
      const trajectory = store.getTrajectory(id);
      if (trajectory) studio.emit('trajectory.changed', { reason: 'world-spec', trajectory });
      return { id };
    },
  };
}
