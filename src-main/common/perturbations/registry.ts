// Every perturbation kind, found by id or by domain. The catalog is one file per domain
// under ./catalog; adding a domain's kinds means adding its file and one line here.
// User-defined kinds (./user-file.ts) join through `withKinds`, never by editing this file.
import type { Domain } from '../trajectory/model';
import { ANDROID_KINDS } from './catalog/android';
import { MCP_KINDS } from './catalog/mcp';
import { OS_KINDS } from './catalog/os';
import { SEARCH_KINDS } from './catalog/search';
import { SWE_KINDS } from './catalog/swe';
import { TERMINAL_KINDS } from './catalog/terminal';
import { WEB_KINDS } from './catalog/web';
import type { PerturbationKind } from './kind';

export interface PerturbationRegistry {
  list(): readonly PerturbationKind[];
  byId(id: string): PerturbationKind | undefined;
  byDomain(domain: Domain): PerturbationKind[];
  /** A registry with more kinds; refuses ids that are already taken. */
  withKinds(kinds: readonly PerturbationKind[]): PerturbationRegistry;
}

export function createRegistry(kinds: readonly PerturbationKind[]): PerturbationRegistry {
  const byId = new Map<string, PerturbationKind>();
  for (const kind of kinds) {
    const taken = byId.get(kind.id);
    if (taken) {
      throw new Error(
        `Two perturbation kinds share the id "${kind.id}" (from ${taken.source} and ${kind.source}). Rename one of them; ids must be unique.`,
      );
    }
    byId.set(kind.id, kind);
  }
  const all = [...kinds];
  return {
    list: () => all,
    byId: (id) => byId.get(id),
    byDomain: (domain) => all.filter((k) => k.domain === domain),
    withKinds: (more) => createRegistry([...all, ...more]),
  };
}

/** The built-in catalog: six or more kinds for each of the seven domains. */
export const perturbationCatalog: PerturbationRegistry = createRegistry([
  ...MCP_KINDS,
  ...SEARCH_KINDS,
  ...TERMINAL_KINDS,
  ...SWE_KINDS,
  ...ANDROID_KINDS,
  ...WEB_KINDS,
  ...OS_KINDS,
]);
