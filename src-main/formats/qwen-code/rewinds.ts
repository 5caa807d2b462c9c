// Which records of a Qwen Code session a rewind took back. Qwen Code (its chat recording, as
// gemini-cli's fork keeps it) writes each record after the one it follows (parentUuid); /rewind
// appends a `system` record of subtype `rewind` whose parent is the record before the turn
// rewound to (none, for the first turn), and the next turn follows that record. The abandoned
// turns stay in the file. On resume Qwen Code walks from the newest record back to the root and
// shows only that chain, so a record off it, written before a rewind on it, was taken back.
//
// Records off the chain that no rewind explains (written after the last one, or in a file
// without any) are kept in file order, and so is every record where the chain cannot be
// followed (a parent the file lacks, a cycle): a break is not a rewind.
import type { ImportSource } from '../../parsing/sources';
import { jsonLines } from '../../parsing/json-lines';
import { chainBack } from '../../parsing/record-chain';

interface QwenRecord {
  uuid: string;
  parent: string | null;
  line: number;
  rewind: boolean;
}

/** The uuid of each record a rewind took back → the line of the rewind record. */
export function rewoundRecords(source: ImportSource): Map<string, number> {
  const byUuid = new Map<string, QwenRecord>();
  const order: QwenRecord[] = [];
  for (const item of jsonLines(source)) {
    if (item.kind !== 'json') continue;
    const r = item.value as Record<string, unknown>;
    // A subagent's records are a conversation of their own; the first copy of a record is the one read.
    if (typeof r !== 'object' || r === null || typeof r.uuid !== 'string' || r.isSidechain === true || byUuid.has(r.uuid)) continue;
    const record = { uuid: r.uuid, parent: typeof r.parentUuid === 'string' ? r.parentUuid : null, line: item.lineNo, rewind: r.type === 'system' && r.subtype === 'rewind' };
    byUuid.set(record.uuid, record);
    order.push(record);
  }
  const rewound = new Map<string, number>();
  const newest = order.at(-1);
  const chain = newest && chainBack(newest, byUuid, (r) => r.parent);
  if (!chain) return rewound;
  const rewinds = order.filter((r) => r.rewind && chain.has(r.uuid));
  for (const record of order) {
    if (chain.has(record.uuid)) continue;
    const by = rewinds.find((r) => r.line > record.line);
    if (by) rewound.set(record.uuid, by.line);
  }
  return rewound;
}
