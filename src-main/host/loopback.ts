// The one guard of every HTTP door this machine serves (the host, the OpenAI-compatible API,
// mcp-serve). Each listens on 127.0.0.1 only, answers only requests addressed to its own
// name (a page on another site that rebinds its DNS name to 127.0.0.1 still sends its own
// Host), refuses web pages of other origins, and compares its secret in constant time.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The only address a door listens on. */
export const LOOPBACK = '127.0.0.1';

/** The names a door on `port` answers to: a page opened as localhost works as well as 127.0.0.1. */
export function loopbackNames(port: number): string[] {
  return [`${LOOPBACK}:${port}`, `localhost:${port}`];
}

/** Whether a request's Host header names this door. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  return host !== undefined && loopbackNames(port).includes(host);
}

/** Whether a request's Origin header is a page of this door itself. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  return origin !== undefined && loopbackNames(port).some((name) => origin === `http://${name}`);
}

/** Compares a secret sent by a client with the door's own, in time that does not depend on where they differ. */
export function secretMatches(expected: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The secret a client sends as `Authorization: Bearer SECRET`, or null. */
export function bearerOf(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
}
