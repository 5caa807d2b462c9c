// The perturbation kinds a workspace offers: the catalog plus the kinds of the workspace's own
// file, which it keeps in its settings so the file travels with it. Simulation, the handlers
// and the agents' environment all read the registry from here.
import { perturbationCatalog, type PerturbationRegistry } from '../common/perturbations/registry';
import { loadUserPerturbations } from '../common/perturbations/user-file';
import type { WorkspaceStore } from '../store/workspace-store';

export const USER_PERTURBATIONS_SETTING = 'perturbations.user-file';
/** How the workspace's file is named in the messages about it. */
export const USER_FILE_NAME = 'workspace perturbations';

/** The catalog plus the kinds of the workspace's own file (a file that fails to load adds none). */
export function workspaceRegistry(store: WorkspaceStore | null): PerturbationRegistry {
  const text = store?.getSetting(USER_PERTURBATIONS_SETTING);
  if (!text) return perturbationCatalog;
  const loaded = loadUserPerturbations(text, USER_FILE_NAME);
  return loaded.ok ? perturbationCatalog.withKinds(loaded.kinds) : perturbationCatalog;
}
