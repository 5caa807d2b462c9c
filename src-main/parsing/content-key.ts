// A stable identity for imported content, so importing the same file twice adds nothing.
import { createHash } from 'node:crypto';

export function contentKey(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update(part);
    hash.update('\u0000');
  }
  return hash.digest('base64url');
}
