// Validates a call at the boundary and runs it. Every door uses this, so no door can skip
// validation, and every error reaches the user as an envelope with a message.
import { ZodError } from 'zod';
import { api, isApiMethod, type Envelope } from '../common/contract/api';
import { EngineError } from '../common/engine';
import { UnknownFormatError } from '../formats/format';
import { WorkspaceError } from '../store/workspace-store';
import type { Studio } from './studio';
import { UserError } from '../common/user-error';

export async function dispatch(studio: Studio, method: unknown, input: unknown): Promise<Envelope<unknown>> {
  if (!isApiMethod(method)) {
    return { ok: false, error: { code: 'unknown-method', message: `Unknown API method ${String(method)}.` } };
  }
  const parsed = api[method].input.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      ok: false,
      error: { code: 'invalid-input', message: `Invalid input for ${method}: ${issue.path.join('.') || 'input'}: ${issue.message}` },
    };
  }
  try {
    const handler = studio.handlers[method] as (input: unknown) => unknown;
    return { ok: true, value: await handler(parsed.data) };
  } catch (err) {
    return { ok: false, error: toUserError(err) };
  }
}

export function toUserError(err: unknown): { code: string; message: string } {
  if (err instanceof UserError || err instanceof WorkspaceError || err instanceof EngineError || err instanceof UnknownFormatError) {
    return { code: err.code, message: err.message };
  }
  if (err instanceof ZodError) return { code: 'invalid', message: err.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT') return { code: 'not-found', message: `${e.path ?? 'File'} does not exist. Check the path and try again.` };
  if (e?.code === 'EACCES' || e?.code === 'EPERM') return { code: 'permission', message: `Permission denied for ${e.path ?? 'a file'}. Choose a location you can write to.` };
  return { code: 'internal', message: e instanceof Error ? e.message : String(err) };
}
