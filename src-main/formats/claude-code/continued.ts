// Which of several Claude Code sessions of a project is carried on in another. Resuming a
// session (--resume, --continue) starts a new session file, and Claude Code writes the
// resumed conversation into it again before the new turns: each record with its own uuid
// (its transcript store appends a record only when that file lacks its uuid, so the new file
// lacks them all), so the earlier file's conversation reappears whole in the later one.
// Claude Code's own history reads a project's files as one tree of records by uuid: a
// conversation is the chain back from a record nothing continues, so the earlier session's
// newest message, continued in the later file, is no conversation of its own there. Read that
// way, the later file holds the whole conversation and is imported as it; the earlier one's
// conversation is said to go on there instead of being imported a second time (its
// subagents, which the copy does not carry, are still its own).
//
// Only the newest message of a session is compared, on the later file's own chain: a later
// session that rewound to before it went another way, and both conversations are imported,
// as Claude Code lists both.
import { dirname } from 'node:path';
import { fileSource } from '../../parsing/sources';
import { chainBack } from '../../parsing/record-chain';
import { conversationRecords, newestMessage, parentOf } from './branches';

/** Where a session's conversation is carried on: the file that holds it whole, and whether that file only copies it. */
export interface Continuation {
  in: string;
  /** The other file ends where this one does: Claude Code copied the conversation and nothing followed. */
  copy: boolean;
}

interface Tip {
  path: string;
  newest: string;
  /** The uuids on the chain back from its newest message; empty where it cannot be followed. */
  chain: Set<string>;
}

function tipOf(path: string): Tip | null {
  const records = conversationRecords(fileSource(path));
  const newest = newestMessage(records);
  if (!newest) return null;
  return { path, newest: newest.uuid, chain: chainBack(newest, records.nodes, parentOf) ?? new Set() };
}

/**
 * The sessions among `paths` (Claude Code session files) whose conversation another of them
 * holds whole and carries on, each with the one to import it from. Sessions are compared
 * within a project's folder, where Claude Code writes a resumed session.
 */
export async function continuedSessions(paths: readonly string[]): Promise<Map<string, Continuation>> {
  const byFolder = new Map<string, string[]>();
  for (const p of paths) byFolder.set(dirname(p), [...(byFolder.get(dirname(p)) ?? []), p]);
  const continued = new Map<string, Continuation>();
  for (const group of byFolder.values()) {
    if (group.length < 2) continue;
    const tips: Tip[] = [];
    for (const path of group) {
      const tip = tipOf(path);
      if (tip) tips.push(tip);
      // A project of many large sessions is read a file at a time, letting the import's other calls (a cancel) in between.
      await new Promise((next) => setImmediate(next));
    }
    for (const [i, tip] of tips.entries()) {
      // A later session that goes on from this one's newest message, else one that only copied it (the first kept).
      const goesOn = tips.find((other) => other !== tip && other.newest !== tip.newest && other.chain.has(tip.newest));
      const copied = goesOn ? undefined : tips.find((other, j) => j < i && other.newest === tip.newest);
      const into = goesOn ?? copied;
      if (into) continued.set(tip.path, { in: into.path, copy: !goesOn });
    }
  }
  // A chain of resumes (A in B, B in C): every one is imported from the last.
  for (const [path, c] of continued) {
    const seen = new Set([path]);
    let last = c;
    while (continued.has(last.in) && !seen.has(last.in)) {
      seen.add(last.in);
      last = continued.get(last.in)!;
    }
    if (last !== c) continued.set(path, { in: last.in, copy: c.copy });
  }
  return continued;
}
