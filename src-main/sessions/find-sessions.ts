// The sessions coding agents left on this machine: every format that declares where its agent
// keeps them (format.ts SessionLocations) is asked for its folders, the files there that match
// its patterns are listed newest first, each with its project, date, size and tool calls
// (count-tool-calls.ts; a file holding many sessions, a database, lists each one itself; a session spread over many files is told by its format). It reads only these folders, only when asked, and sends nothing anywhere.
import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { glob } from 'tinyglobby';
import type { SessionHome, SessionLocations } from '../formats/format';
import { FORMATS } from '../formats/registry';
import { sessionPath } from '../parsing/session-path';
import { scanSession } from './count-tool-calls';

export interface FoundSession {
  path: string;
  agent: string;
  /** The importer that reads it. */
  format: string;
  project: string | null;
  /** When the agent last wrote it (ISO 8601). */
  modified: string;
  bytes: number;
  toolCalls: number;
}

export interface SearchedFolder {
  agent: string;
  format: string;
  path: string;
  /** `default`, or the environment variable that named the folder. */
  from: string;
  exists: boolean;
  sessions: number;
}

export interface SessionSearch {
  folders: SearchedFolder[];
  sessions: FoundSession[];
  /** Files found but not read (gone, unreadable), each with why. */
  problems: { path: string; reason: string }[];
}

export interface SessionSearchOptions {
  /** Formats to look for (all that declare session locations when not given). */
  formats?: readonly string[];
  /** Files read at once. */
  concurrency?: number;
}

/** The machine this process runs on, as a search for sessions sees it. */
export function thisMachine(): SessionHome {
  return { home: process.env.HOME || process.env.USERPROFILE || '', platform: process.platform, env: process.env };
}

/** Every format that says where its agent keeps sessions. */
export function sessionFormats(): { format: string; sessions: SessionLocations }[] {
  return FORMATS.flatMap((f) => (f.sessions && f.importer ? [{ format: f.importer.id, sessions: f.sessions }] : []));
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** Runs `work` over `items`, `limit` at a time, keeping their order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    }),
  );
  return out;
}

export async function findSessions(home: SessionHome = thisMachine(), options: SessionSearchOptions = {}): Promise<SessionSearch> {
  const folders: SearchedFolder[] = [];
  const candidates: { path: string; relative: string; agent: string; format: string; locations: SessionLocations; folder: SearchedFolder }[] = [];
  const seen = new Set<string>();
  for (const { format, sessions } of sessionFormats()) {
    if (options.formats && !options.formats.includes(format)) continue;
    for (const folder of sessions.folders(home)) {
      const searched: SearchedFolder = { agent: sessions.agent, format, path: folder.path, from: folder.from, exists: await isFolder(folder.path), sessions: 0 };
      folders.push(searched);
      if (!searched.exists) continue;
      const files = await glob([...sessions.files], { cwd: folder.path, absolute: true, onlyFiles: true, followSymbolicLinks: false, dot: false });
      for (const path of files.sort()) {
        if (seen.has(path)) continue;
        seen.add(path);
        candidates.push({ path, relative: relative(folder.path, path), agent: sessions.agent, format, locations: sessions, folder: searched });
      }
    }
  }
  const problems: SessionSearch['problems'] = [];
  const read = await mapLimited(candidates, options.concurrency ?? 8, async (c): Promise<FoundSession[]> => {
    try {
      const info = await stat(c.path);
      if (await c.locations.copiedElsewhere?.(c.path)) return [];
      if (c.locations.sessionsIn) {
        // A file of many sessions (a database): one entry each, named `<file>#<id>`.
        const inside = await c.locations.sessionsIn(c.path);
        c.folder.sessions += inside.length;
        return inside.map((s) => ({ path: sessionPath(c.path, s.id), agent: c.agent, format: c.format, project: s.project, modified: s.modified ?? info.mtime.toISOString(), bytes: s.bytes, toolCalls: s.toolCalls }));
      }
      if (c.locations.describeSession) {
        // A session spread over many files, listed by the file that names it.
        const whole = await c.locations.describeSession(c.path);
        if (!whole) return [];
        c.folder.sessions++;
        return [{ path: c.path, agent: c.agent, format: c.format, project: whole.project, modified: whole.modified ?? info.mtime.toISOString(), bytes: whole.bytes, toolCalls: whole.toolCalls }];
      }
      const scan = await scanSession(c.path, c.locations);
      c.folder.sessions++;
      return [{ path: c.path, agent: c.agent, format: c.format, project: c.locations.project(scan.head, c.relative), modified: info.mtime.toISOString(), bytes: info.size, toolCalls: scan.toolCalls }];
    } catch (error) {
      problems.push({ path: c.path, reason: `it could not be read (${(error as Error).message})` });
      return [];
    }
  });
  const sessions = read.flat().sort((a, b) => b.modified.localeCompare(a.modified) || a.path.localeCompare(b.path));
  return { folders, sessions, problems };
}
