// asciinema casts (v2 and v3) as terminal trajectories: each command typed at the shell
// becomes an action, and the screen text it produced (through the next prompt) its
// observation. Output is rendered by a real terminal emulator (./terminal-screen.ts) so
// colours, carriage-return progress bars and cursor moves read as a person saw them.
// Turns are split on recorded keystrokes when the cast has them (`asciinema rec -I`),
// else on shell prompts found in the rendered text (the prompt grammar lives in
// ../metrics/terminal-state.ts, which compares prompts of simulated and real screens).
import { z } from 'zod';
import { parsePrompt, type ShellPrompt } from '../common/metrics/terminal-state';
import { chainBundle, type StepDraft } from '../common/trajectory/build';
import type { ImportItem, ImportSource, TrajectoryImporter, FormatEntry } from './format';
import { contentKey } from './content-key';
import { LineEditor } from './keystrokes';
import { parseBoundedJson } from './json-limits';
import { clampTerminalSize, TerminalScreen } from './terminal-screen';

const FORMAT = 'asciinema';
const Dim = z.number().int().positive();
const Env = z.record(z.string(), z.string().nullable()).optional();
const Header = z.discriminatedUnion('version', [
  z.looseObject({ version: z.literal(2), width: Dim, height: Dim, command: z.string().optional(), title: z.string().optional(), env: Env }),
  z.looseObject({
    version: z.literal(3),
    term: z.looseObject({ cols: Dim, rows: Dim, type: z.string().optional() }),
    command: z.string().optional(),
    title: z.string().optional(),
    env: Env,
  }),
]);
type Header = z.infer<typeof Header>;

interface CastEvent {
  /** Seconds since the start of the recording (v3 intervals are summed up). */
  time: number;
  code: string;
  data: string;
  line: number;
}

interface Turn extends StepDraft {
  durationSeconds?: number;
}

/** The first line that is not blank and not a v3 `#` comment. */
function headerLine(head: string): string | undefined {
  return head.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'));
}

export const asciinemaImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'asciinema cast',
  detect(name, head) {
    const first = headerLine(head);
    try {
      const h = JSON.parse(first ?? '') as Record<string, unknown>;
      if (h.version === 2 && typeof h.width === 'number' && typeof h.height === 'number') return 0.98;
      if (h.version === 3 && typeof h.term === 'object' && h.term !== null) return 0.98;
    } catch {
      // Not a JSON header line: fall back to the file name.
    }
    return /\.cast$/i.test(name) ? 0.5 : 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const texts: string[] = [];
    let header: Header | undefined;
    let headerLineNo = 0;
    const events: CastEvent[] = [];
    let clock = 0;
    for (const line of source.lines()) {
      texts.push(line.text);
      if (line.error) {
        yield { kind: 'problem', line: line.lineNo, reason: line.error };
        continue;
      }
      if (line.text.trim() === '' || line.text.startsWith('#')) continue;
      let raw: unknown;
      try {
        raw = parseBoundedJson(line.text);
      } catch (err) {
        yield { kind: 'problem', line: line.lineNo, reason: `not valid JSON (${(err as Error).message})` };
        if (!header) return;
        continue;
      }
      if (!header) {
        const parsed = Header.safeParse(raw);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          const field = issue.path.join('.') || 'version';
          yield { kind: 'problem', line: line.lineNo, field, reason: `not an asciinema v2/v3 header: ${field}: ${issue.message}` };
          return;
        }
        header = parsed.data;
        headerLineNo = line.lineNo;
        const [w, h] = header.version === 2 ? [header.width, header.height] : [header.term.cols, header.term.rows];
        const note = sizeNote(w, h, 'the header asks for');
        if (note) yield { kind: 'problem', line: line.lineNo, field: header.version === 2 ? 'width' : 'term.cols', reason: note };
        continue;
      }
      const problem = eventProblem(raw);
      if (problem) {
        yield { kind: 'problem', line: line.lineNo, field: problem.field, reason: problem.reason };
        continue;
      }
      const [t, code, data] = raw as [number, string, string];
      const resize = code === 'r' ? /^(\d+)x(\d+)$/.exec(data.trim()) : null;
      const note = resize ? sizeNote(Number(resize[1]), Number(resize[2]), 'a resize event asks for') : null;
      if (note) yield { kind: 'problem', line: line.lineNo, field: 'data', reason: note };
      clock = header.version === 3 ? clock + t : t;
      events.push({ time: clock, code, data, line: line.lineNo });
    }
    if (!header) {
      yield { kind: 'problem', line: null, reason: 'empty file: no asciinema header line' };
      return;
    }
    const [cols, rows] = clampTerminalSize(...(header.version === 2 ? [header.width, header.height] as const : [header.term.cols, header.term.rows] as const));
    const typed = events.some((e) => e.code === 'i' && /[\r\n]/.test(e.data));
    const split = typed ? splitByKeystrokes(events, cols, rows) : splitByPrompts(events, cols, rows);
    let { initialState, turns } = split;
    if (turns.length === 0 && header.command) {
      // `asciinema rec -c CMD` records one program rather than a shell: one turn.
      turns = [{ action: header.command, observation: initialState, origin: 'real' }];
      initialState = '';
    } else if (turns.length === 0) {
      yield {
        kind: 'problem',
        line: null,
        reason: 'no shell prompts or typed commands found: the whole recording is imported as the initial state',
      };
    }
    const exit = events.findLast((e) => e.code === 'x')?.data;
    const env = header.env ?? {};
    const term = header.version === 3 ? (header.term.type ?? env.TERM) : env.TERM;
    yield {
      kind: 'trajectory',
      bundle: chainBundle(
        {
          title: header.title ?? `${source.name} (asciinema)`,
          domain: 'terminal',
          systemPrompt:
            `Terminal environment recorded with asciinema: ${env.SHELL ?? 'a shell'} in a ${cols}×${rows} ` +
            `${term ?? 'terminal'}. Each action is a line typed at the prompt; each observation is the ` +
            'screen text it printed, ending with the next prompt.',
          initialState,
          sourceKey: contentKey([FORMAT, ...texts]),
          rootProvenance: {
            source: { format: FORMAT, file: source.name, line: headerLineNo },
            recording: { castVersion: header.version, cols, rows, splitBy: typed ? 'keystrokes' : 'prompts', ...(exit !== undefined ? { exitStatus: /^-?\d+$/.test(exit) ? Number(exit) : exit } : {}) },
          },
          steps: turns.map(({ durationSeconds, ...step }) => ({
            ...step,
            provenance: {
              source: { format: FORMAT, file: source.name, ...(step.provenance?.source ?? {}) },
              ...(durationSeconds !== undefined ? { timings: { durationSeconds } } : {}),
            },
          })),
        },
        newId,
        now,
      ),
    };
  },
};

function eventProblem(raw: unknown): { field: string; reason: string } | undefined {
  if (!Array.isArray(raw) || raw.length < 3) return { field: 'event', reason: 'an event must be [time, code, data]' };
  if (typeof raw[0] !== 'number' || !Number.isFinite(raw[0]) || raw[0] < 0) return { field: 'time', reason: 'event time must be a number ≥ 0' };
  if (typeof raw[1] !== 'string' || raw[1] === '') return { field: 'code', reason: 'event code must be a string such as "o" or "i"' };
  if (typeof raw[2] !== 'string') return { field: 'data', reason: 'event data must be a string' };
  return undefined;
}

/** The note for a terminal size past the emulator's bounds (the size is clamped, the cast still imports), or null. */
function sizeNote(cols: number, rows: number, where: string): string | null {
  const [c, r] = clampTerminalSize(cols, rows);
  return c === cols && r === rows ? null : `${where} a ${cols}×${rows} terminal; it was replayed at ${c}×${r}, the largest Worldloom renders`;
}

function applyResize(screen: TerminalScreen, data: string): void {
  const m = /^(\d+)x(\d+)$/.exec(data.trim());
  if (m) screen.resize(Number(m[1]), Number(m[2]));
}

function joinLines(lines: readonly string[]): string {
  const out = [...lines];
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}

/**
 * Keystrokes recorded: a turn's action is the line typed up to Enter, and its observation
 * is everything printed from Enter until the next keystroke (output, then the next prompt).
 */
function splitByKeystrokes(events: readonly CastEvent[], cols: number, rows: number): { initialState: string; turns: Turn[] } {
  const screen = new TerminalScreen(cols, rows);
  const editor = new LineEditor();
  let initialState = '';
  const turns: Turn[] = [];
  let open: { action: string; time: number; line: number } | null = null;
  let collecting = true; // collecting output for the open turn (or the banner when none is open)
  let pending: string[] = [];
  let prompt = '';

  const close = (time: number) => {
    const text = screen.inFullScreenProgram ? screen.fullScreenText() : joinLines([...pending, ...screen.take()]);
    pending = [];
    if (!screen.inFullScreenProgram) prompt = text.split('\n').pop() ?? '';
    if (open) turns.push({ action: open.action, observation: text, origin: 'real', provenance: { source: { format: FORMAT, line: open.line } }, durationSeconds: round(time - open.time) });
    else initialState = text;
    open = null;
    collecting = false;
  };

  try {
    for (const ev of events) {
      if (ev.code === 'o') {
        screen.write(ev.data);
        const done = screen.flushIfLarge();
        if (collecting) pending.push(...done);
      } else if (ev.code === 'r') applyResize(screen, ev.data);
      else if (ev.code === 'i') {
        if (collecting) close(ev.time);
        for (const typed of editor.feed(ev.data)) {
          if (collecting) close(ev.time);
          // Tab completion, history recall and cursor moves change the line in ways the
          // keystrokes alone do not tell: the echoed line on screen is the truth then.
          const action = typed.edited && !screen.inFullScreenProgram ? (echoedCommand(screen.currentLine(), prompt) ?? typed.text) : typed.text;
          screen.take();
          open = { action, time: ev.time, line: ev.line };
          collecting = true;
        }
        if (collecting && editor.typing) close(ev.time);
      }
    }
    if (collecting) close(events.at(-1)?.time ?? 0);
  } finally {
    screen.dispose();
  }
  return { initialState, turns };
}

function echoedCommand(line: string, prompt: string): string | undefined {
  if (prompt && line.startsWith(prompt)) return line.slice(prompt.length).trim();
  return parsePrompt(line)?.command.trim() || undefined;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** The kind of prompt that marks turns: the strongest family found, and its host. */
function promptIdentity(p: ShellPrompt): string {
  return `${p.family}|${p.host ?? ''}`;
}

const FAMILY_STRENGTH = ['user@host', 'bracket', 'path', 'bare'] as const;

/**
 * No keystrokes: render the whole cast, then cut the screen text at lines that start with
 * the session's shell prompt followed by a command.
 */
function splitByPrompts(events: readonly CastEvent[], cols: number, rows: number): { initialState: string; turns: Turn[] } {
  const screen = new TerminalScreen(cols, rows);
  const lines: string[] = [];
  try {
    for (const ev of events) {
      if (ev.code === 'o') {
        screen.write(ev.data);
        lines.push(...screen.flushIfLarge());
      } else if (ev.code === 'r') applyResize(screen, ev.data);
    }
    lines.push(...screen.take());
  } finally {
    screen.dispose();
  }
  while (lines.length && lines[lines.length - 1] === '') lines.pop();

  const prompts = lines.map((l) => parsePrompt(l));
  // Output can contain lines that look like weak prompts ("# comment", "% done"), so only
  // prompts of the strongest kind seen, on the same host, mark turns.
  const family = FAMILY_STRENGTH.find((f) => prompts.some((p) => p?.family === f));
  const identity = prompts.find((p) => p?.family === family);
  const cuts: number[] = [];
  prompts.forEach((p, i) => {
    if (p && identity && promptIdentity(p) === promptIdentity(identity) && p.command.trim() !== '') cuts.push(i);
  });
  if (cuts.length === 0) return { initialState: joinLines(lines), turns: [] };

  const promptOf = (i: number) => prompts[i]!.prompt;
  const initialState = joinLines([...lines.slice(0, cuts[0]), promptOf(cuts[0]!)]);
  const turns: Turn[] = cuts.map((at, k) => {
    let action = prompts[at]!.command;
    let from = at + 1;
    // A command continued with a trailing backslash goes on after the shell's "> " prompt.
    while (action.endsWith('\\') && from < lines.length && lines[from]!.startsWith('> ')) action += '\n' + lines[from++]!.slice(2);
    const next = cuts[k + 1];
    const body = lines.slice(from, next ?? lines.length);
    return { action, observation: joinLines(next === undefined ? body : [...body, promptOf(next)]), origin: 'real' as const };
  });
  return { initialState, turns };
}

export const asciinemaFormat: FormatEntry = { id: 'asciinema', label: 'asciinema cast', extensions: ['cast'], importer: asciinemaImporter };
