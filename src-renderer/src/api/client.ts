// Typed calls over whichever door the UI runs behind.
import type { ApiEvent, ApiEventPayload, ApiInput, ApiMethod, ApiOutput } from '../../../src-main/common/contract/api';
import { door } from './door';

export class ApiCallError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export async function call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>> {
  const envelope = await door.invoke(method, input);
  if (!envelope.ok) throw new ApiCallError(envelope.error.message, envelope.error.code);
  return envelope.value as ApiOutput<M>;
}

export function onEvent<E extends ApiEvent>(event: E, listener: (payload: ApiEventPayload<E>) => void): () => void {
  return door.subscribe((name, payload) => {
    if (name === event) listener(payload as ApiEventPayload<E>);
  });
}

/** Desktop menu commands (File ▸ New, Open, Import…), sent by the Electron door only. */
export function onMenuCommand(listener: (command: string) => void): () => void {
  return door.subscribe((name, payload) => {
    if (name === 'menu.command') listener((payload as { command: string }).command);
  });
}
