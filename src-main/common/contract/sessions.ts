// The agent sessions part of the contract: the sessions coding agents left in their own
// folders on the machine the core runs on, found when asked (import them with `import.files`,
// `scrub` on to take secrets and personal data out as they come in). Pure: the renderer imports it too.
import { z } from 'zod';
import { method } from './method';

export const FoundSession = z.object({
  path: z.string(),
  agent: z.string(),
  /** The import format that reads it. */
  format: z.string(),
  /** The folder the agent worked in, as the session names it (else as its folder does). */
  project: z.string().nullable(),
  /** When the agent last wrote to it (ISO 8601). */
  modified: z.string(),
  bytes: z.number().int(),
  toolCalls: z.number().int(),
});
export type FoundSession = z.infer<typeof FoundSession>;

export const SessionSearch = z.object({
  /** Every folder looked in, whether it exists, and why it was looked in (`default` or the environment variable that named it). */
  folders: z.array(z.object({ agent: z.string(), format: z.string(), path: z.string(), from: z.string(), exists: z.boolean(), sessions: z.number().int() })),
  /** Newest first. */
  sessions: z.array(FoundSession),
  problems: z.array(z.object({ path: z.string(), reason: z.string() })),
});
export type SessionSearch = z.infer<typeof SessionSearch>;

export const sessionsApi = {
  /** Looks in each supported agent's session folders (per OS and the environment variables the agent honours); reads nothing else and sends nothing anywhere. */
  'sessions.list': method(z.object({ formats: z.array(z.string().min(1).max(64)).max(100).optional() }), SessionSearch),
};
