// A Studio on a fresh workspace with a model loaded, called through the contract's dispatcher
// as every door calls it: for tests and benchmarks that drive whole paths (replay, expansion).
import { join } from 'node:path';
import type { ApiMethod, ApiOutput } from '../common/contract/api';
import type { ModelSpec } from '../common/contract/simulation';
import { dispatch } from '../service/dispatch';
import { Studio } from '../service/studio';
import { RESOURCES_DIR } from './paths';

export async function studioWithModel(dir: string, name: string, spec: ModelSpec) {
  const studio = new Studio({ door: 'host', resourcesDir: RESOURCES_DIR });
  studio.openWorkspace(join(dir, `${name}.worldloom`), 'create');
  await studio.loadModel(spec);
  /** Calls a contract method; a refusal is thrown with its message. */
  const call = async <M extends ApiMethod>(method: M, input: unknown): Promise<ApiOutput<M>> => {
    const envelope = await dispatch(studio, method, input);
    if (!envelope.ok) throw new Error(envelope.error.message);
    return envelope.value as ApiOutput<M>;
  };
  return { studio, call, store: studio.requireStore() };
}
