// The terminal session generator behind worldloom-nano's data: the classic sessions a seed
// records must stay what the shipped model was trained on (stage 1–3 data, seed 1234), and
// coined sessions must really use names the classic lists do not have, shell-safe, and
// query only files the session made.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HAND_WRITTEN_SESSIONS, HAND_WRITTEN_SESSIONS_2 } from './hand-written-sessions';
import { Rng, subSeed } from './rng';
import { CLASSIC_VOCABULARY, coinedVocabulary, terminalCommands, wideVocabulary } from './terminal-actions';

const session = (seed: number, i: number, coined: boolean): string[] =>
  terminalCommands(new Rng(subSeed(seed, 'terminal', i)), coined ? coinedVocabulary(new Rng(subSeed(seed, 'coined-names', i))) : undefined);
const wideSession = (seed: number, i: number): string[] =>
  terminalCommands(new Rng(subSeed(seed, 'terminal', i)), wideVocabulary(new Rng(subSeed(seed, 'coined-names', i))));
const sessionsDigest = (make: (i: number) => string[]): string => {
  const digest = createHash('sha256');
  for (let i = 0; i < 300; i++) digest.update(JSON.stringify(make(i)) + '\n');
  return digest.digest('hex');
};

describe('terminal sessions for worldloom-nano', () => {
  it('records the same classic sessions for seed 1234 as the shipped model was trained on', () => {
    // Taken from the generator as it was when data/sessions.jsonl of the shipped model was recorded.
    expect(sessionsDigest((i) => session(1234, i, false))).toBe('ee1652df872176e217d535bd0790b34faffb91cfe236b217f5d5fbe9b78fa6bc');
  });

  it('records the same coined sessions for seed 4321 as the shipped model was trained on', () => {
    // Taken from the generator as it was when data/sessions-coined.jsonl was recorded (before the wide tools).
    expect(sessionsDigest((i) => session(4321, i, true))).toBe('ec7aebe7b4eaf3debb525910f635d09f20f91bf994fbe5a2d64b28b9e97fbd40');
  });

  it('gives wide sessions python3, sed, diff, scripts, loops and tests, and keeps them out of the other sessions', () => {
    const tools: Record<string, RegExp> = {
      python3: /^python3 /, sed: /^sed /, diff: /^(diff|cmp) /, script: /^(sh|bash) \S+\.sh$|^\.\/\S+\.sh$/, loop: /^for \w+ in /, test: /^if \[ |^\[ -e /,
      log: /^printf '(GET|POST|PUT|DELETE) /, json: /^echo '\{"/,
    };
    const seen = new Map<string, number>();
    let commands = 0;
    for (let i = 0; i < 300; i++) {
      for (const command of wideSession(11, i)) {
        commands++;
        for (const [tool, pattern] of Object.entries(tools)) if (pattern.test(command)) seen.set(tool, (seen.get(tool) ?? 0) + 1);
        // The shell must outlive every command: a session ends when its commands do, not before.
        expect(command, `session ${i}`).not.toMatch(/^exit\b|; exit\b(?![^']*')/);
      }
    }
    for (const tool of Object.keys(tools)) expect(seen.get(tool) ?? 0, tool).toBeGreaterThan(5);
    const python = seen.get('python3')!;
    expect(python / commands).toBeGreaterThan(0.04);
    for (let i = 0; i < 300; i++) {
      for (const command of [...session(11, i, true), ...session(11, i, false)]) expect(command).not.toMatch(/^(python3 -c|sed|diff|cmp|for) /);
    }
  });

  it('makes the same coined vocabulary for the same seed, and a different one for another', () => {
    expect(coinedVocabulary(new Rng(7))).toEqual(coinedVocabulary(new Rng(7)));
    expect(coinedVocabulary(new Rng(7)).files).not.toEqual(coinedVocabulary(new Rng(8)).files);
  });

  it('coins mostly names outside the classic lists, each safe to type unquoted', () => {
    const classic = new Set([...CLASSIC_VOCABULARY.files, ...CLASSIC_VOCABULARY.dirs, ...CLASSIC_VOCABULARY.words]);
    let names = 0;
    let fromClassic = 0;
    const distinct = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const vocab = coinedVocabulary(new Rng(subSeed(99, 'coined-names', i)));
      expect(vocab.coined).toBe(true);
      for (const name of [...vocab.files, ...vocab.dirs, ...vocab.words]) {
        expect(name).toMatch(/^[a-z0-9][a-z0-9._-]*$/);
        names++;
        distinct.add(name);
        if (classic.has(name)) fromClassic++;
      }
      for (const v of vocab.vars) expect(v).toMatch(/^[A-Z][A-Z0-9_]*$/);
    }
    expect(fromClassic / names).toBeLessThan(0.3);
    // 200 sessions × ~46 names: a model cannot learn them as a list.
    expect(distinct.size).toBeGreaterThan(4000);
  });

  it('queries columns only of files the session wrote as name-and-number lines', () => {
    let columnCommands = 0;
    for (let i = 0; i < 400; i++) {
      const written = new Set<string>();
      for (const command of session(5, i, true)) {
        const made = /> (\S+)$/.exec(command.split('\n')[0]!.replace(/ << 'EOF'$/, ''));
        if (made && !command.includes('>>')) written.add(made[1]!);
        const moved = /^(?:mv|cp) (\S+) (\S+)$/.exec(command);
        if (moved && written.has(moved[1]!)) written.add(moved[2]!);
        const column = /^(?:sort -k\S+ (?:-n |-nr )?|awk '[^']*' |cut -d' ' -f\d )(\S+)/.exec(command);
        if (column) {
          columnCommands++;
          expect(written.has(column[1]!), `${command} in session ${i}`).toBe(true);
        }
      }
    }
    expect(columnCommands).toBeGreaterThan(20);
  });

  it('types each hand-written command on one line, except a heredoc', () => {
    // A newline inside printf's quotes would make bash ask for the rest ("> ") instead of printing escapes.
    for (const { title, commands } of [...HAND_WRITTEN_SESSIONS, ...HAND_WRITTEN_SESSIONS_2]) {
      for (const command of commands) if (!/<< '?EOF'?\n/.test(command)) expect(command, title).not.toContain('\n');
    }
  });
});
