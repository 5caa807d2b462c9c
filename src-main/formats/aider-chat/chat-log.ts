// aider's chat history (.aider.chat.history.md) as the entries it was written from. aider
// appends to it as it goes (its io.py): `# aider chat started at <date>` when a session starts;
// the person's input as `#### ` lines; the model's reply as plain Markdown after a blank line;
// its own messages (tool output, questions and answers, results of applying edits) as `> `
// lines. Every line it writes for the person or for itself ends in two spaces, added after
// the text is stripped, so a `> ` line without them is the first line of a message of several
// lines, of which only the first was quoted; the message runs to a line ending in two spaces
// that is followed by a blank line, a quoted line, the person's input or the file's end
// (what aider writes next always starts so). Replies and input are never written directly
// after a message: a blank line comes first. A history whose trailing spaces were trimmed (an
// editor or a commit hook) is read line by line as aider itself reads it back
// (utils.split_chat_history_markdown): `#### ` input, `> ` messages, the rest replies. Pure.
import type { SourceLine } from '../../parsing/sources';

export type ChatEntry =
  /** What the person typed, one line per `#### ` line, as they typed it. */
  | { kind: 'input'; text: string; line: number }
  /** The model's reply as aider wrote it (stripped, as aider strips it). */
  | { kind: 'reply'; text: string; line: number }
  /** One message of aider's own, its lines joined. */
  | { kind: 'message'; text: string; line: number };

export interface ChatSession {
  /** The date and time the header gives, as written (aider writes local time, no zone). */
  startedAt: string;
  /** The header's line. */
  line: number;
  entries: ChatEntry[];
  /** The session's lines as written, for its content key. */
  lines: string[];
}

export const SESSION_HEADER = /^# aider chat started at (.*)$/;
const BREAK = '  ';
const endsWithBreak = (text: string) => text.endsWith(BREAK);
const withoutBreak = (text: string) => (endsWithBreak(text) ? text.slice(0, -BREAK.length) : text);
const isQuoted = (text: string) => text === '>' || text.startsWith('> ');
const quoted = (text: string) => (text === '>' ? '' : text.slice(2));

type Kind = 'header' | 'input' | 'message' | 'reply';

/** One session's lines, numbered, as the file holds them. */
interface SessionLines {
  header: string;
  startedAt: string;
  line: number;
  texts: string[];
  numbers: number[];
}

/**
 * The sessions of one chat history, in file order, each with its entries; `before` is called
 * with the lines that come before the first header (a file that does not start with a session).
 */
export function* chatSessions(lines: Iterable<SourceLine>, before?: (line: SourceLine) => void): Iterable<ChatSession> {
  let current: SessionLines | null = null;
  for (const source of lines) {
    const header = SESSION_HEADER.exec(source.text);
    if (header) {
      if (current) yield sessionEntries(current);
      current = { header: source.text, startedAt: header[1]!.trim(), line: source.lineNo, texts: [], numbers: [] };
      continue;
    }
    if (!current) before?.(source);
    else {
      current.texts.push(source.text);
      current.numbers.push(source.lineNo);
    }
  }
  if (current) yield sessionEntries(current);
}

/** How far a message of several lines is looked for: past this, the quoted line is a message of its own. */
const MAX_MESSAGE_LINES = 20_000;

/**
 * Where the message of several lines starting at `at` ends (the index of its last line), or -1
 * when the lines after it are not one: a continuation is never quoted or typed input (aider
 * quotes only the first line), and it ends at a line ending in two spaces after which aider
 * wrote something else. A history whose trailing spaces were trimmed (an editor saving it)
 * has no such end: each quoted line is then a message of its own, as aider reads it back.
 */
function messageEnd(texts: readonly string[], at: number): number {
  for (let j = at + 1; j < texts.length && j <= at + MAX_MESSAGE_LINES; j++) {
    const text = texts[j]!;
    if (isQuoted(text) || /^####( |$)/.test(text)) return -1;
    if (endsWithBreak(text)) {
      const next = texts[j + 1];
      if (next === undefined || next === '' || isQuoted(next) || /^####( |$)/.test(next)) return j;
    }
  }
  return -1;
}

function sessionEntries(lines: SessionLines): ChatSession {
  const { texts, numbers } = lines;
  const entries: ChatEntry[] = [];
  /** The kind of the last line that was not blank, and how many blank lines came after it. */
  let last: Kind = 'header';
  let blanks = 0;
  let reply: { text: string[]; line: number } | null = null;
  let input: { text: string[]; line: number } | null = null;
  const closeReply = () => {
    if (reply) entries.push({ kind: 'reply', text: reply.text.join('\n'), line: reply.line });
    reply = null;
  };
  const closeInput = () => {
    if (input) entries.push({ kind: 'input', text: input.text.join('\n'), line: input.line });
    input = null;
  };
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!;
    const lineNo = numbers[i]!;
    if (text === '') {
      blanks++;
      continue;
    }
    // The person's input: aider writes it after a blank line (two after a reply, which ends in
    // one), each line after the first directly below. A `#### ` heading inside a reply has
    // one blank line before it and, unlike input, no two trailing spaces.
    const typed =
      /^####( |$)/.test(text) &&
      (last === 'input' ? true : last === 'reply' ? blanks >= 2 || (blanks === 1 && endsWithBreak(text)) : blanks >= 1 || endsWithBreak(text));
    if (typed) {
      closeReply();
      const words = withoutBreak(text.slice(5));
      if (input && last === 'input' && blanks === 0) input.text.push(words);
      else {
        closeInput();
        input = { text: [words], line: lineNo };
      }
      last = 'input';
      blanks = 0;
      continue;
    }
    // aider's own message; a quoted line inside a reply's paragraph is the reply's.
    if (isQuoted(text) && (blanks > 0 || last !== 'reply')) {
      closeReply();
      closeInput();
      const end = !endsWithBreak(text) && last !== 'reply' ? messageEnd(texts, i) : -1;
      if (end < 0) entries.push({ kind: 'message', text: quoted(withoutBreak(text)), line: lineNo });
      else {
        const more = texts.slice(i + 1, end + 1);
        more[more.length - 1] = withoutBreak(more[more.length - 1]!);
        entries.push({ kind: 'message', text: [quoted(text), ...more].join('\n'), line: lineNo });
        i = end;
      }
      last = 'message';
      blanks = 0;
      continue;
    }
    closeInput();
    if (reply && last === 'reply') {
      for (let b = 0; b < blanks; b++) reply.text.push('');
      reply.text.push(text);
    } else {
      closeReply();
      reply = { text: [text], line: lineNo };
    }
    last = 'reply';
    blanks = 0;
  }
  closeReply();
  closeInput();
  return { startedAt: lines.startedAt, line: lines.line, entries, lines: [lines.header, ...texts] };
}
