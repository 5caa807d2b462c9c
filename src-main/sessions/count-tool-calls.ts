// Counting a session's tool calls without importing it: the file is read in chunks as bytes,
// only the few bytes around each place its format's hint occurs are decoded, and the format's
// tool-call pattern is matched there. Listing a thousand sessions then costs about a read of
// their bytes, not a parse of their JSON (`npm run bench -- import` measures the ratio).
import { open } from 'node:fs/promises';
import type { SessionLocations } from '../formats/format';

const CHUNK_BYTES = 1024 * 1024;
/** A tool call's pattern starts this far before its hint at most, and ends this far after it. */
const BEFORE = 256;
const AFTER = 768;

export interface SessionScan {
  toolCalls: number;
  /** The file's first part as text, where its project is named. */
  head: string;
}

/** Counts the tool calls in one session file and keeps its first `headBytes` as text. */
export async function scanSession(path: string, locations: Pick<SessionLocations, 'toolCall' | 'toolCallHint'>, headBytes = 64 * 1024): Promise<SessionScan> {
  const hint = Buffer.from(locations.toolCallHint);
  const pattern = new RegExp(locations.toolCall.source, locations.toolCall.flags.includes('g') ? locations.toolCall.flags : `${locations.toolCall.flags}g`);
  const ids = new Set<string>();
  let unnamed = 0;
  let head = '';
  const file = await open(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    // Bytes kept from the previous chunk: the context before the next hint, or a hint whose pattern may run into this chunk.
    let kept: Buffer = Buffer.alloc(0);
    let searchFrom = 0;
    let headParts: Buffer[] = [];
    let headLength = 0;
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, CHUNK_BYTES, null);
      const atEnd = bytesRead === 0;
      if (headLength < headBytes && bytesRead > 0) {
        const part = Buffer.from(chunk.subarray(0, Math.min(bytesRead, headBytes - headLength)));
        headParts.push(part);
        headLength += part.length;
      }
      const data = kept.length ? Buffer.concat([kept, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      let at = data.indexOf(hint, searchFrom);
      // A hit is matched once the bytes after it are here (or the file has ended).
      while (at >= 0 && (atEnd || at + AFTER <= data.length)) {
        const from = Math.max(0, at - BEFORE);
        const window = data.subarray(from, Math.min(data.length, at + AFTER)).toString('utf8');
        const hintAt = data.subarray(from, at).toString('utf8').length;
        pattern.lastIndex = 0;
        for (let m = pattern.exec(window); m; m = pattern.exec(window)) {
          if (m.index > hintAt) break;
          if (m.index + m[0].length > hintAt) {
            if (m[1] !== undefined) ids.add(m[1]);
            else unnamed++;
            break;
          }
          if (m[0].length === 0) pattern.lastIndex++;
        }
        at = data.indexOf(hint, at + hint.length);
      }
      if (atEnd) break;
      // Keep what the next hits may need: from BEFORE bytes ahead of the first hit not yet matched (or of the last bytes a hint may start in).
      const resumeAt = at >= 0 ? at : Math.max(0, data.length - hint.length + 1);
      const keepFrom = Math.max(0, resumeAt - BEFORE);
      kept = Buffer.from(data.subarray(keepFrom));
      searchFrom = resumeAt - keepFrom;
    }
    head = Buffer.concat(headParts).toString('utf8');
    headParts = [];
  } finally {
    await file.close();
  }
  return { toolCalls: ids.size + unnamed, head };
}
