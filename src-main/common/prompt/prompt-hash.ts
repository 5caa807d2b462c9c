// A stable fingerprint of the exact chat sent to a model, stored in a node's provenance
// so two nodes can be told apart (or matched) by what the model was really shown.
// Pure: Web Crypto is built into Node, Electron and every browser.
import type { ChatMessage } from '../engine';

/** "sha256:<hex>" of the messages' roles and contents, in order; other fields do not count. */
export async function promptHash(messages: readonly ChatMessage[]): Promise<string> {
  // An array of pairs, not the objects themselves, so key order or extra fields never change the hash.
  const canonical = JSON.stringify(messages.map((m) => [m.role, m.content]));
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  return `sha256:${hex}`;
}
