// aider's chat history (.aider.chat.history.md) as the entries it was written from. aider
// appends to it as it goes (its io.py): `# aider chat started at <date>` when a session starts;
// the person's input as `#### ` lines; the model's reply as plain Markdown after a blank line;
// its own messages (tool output, questions and answers, results of applying edits) as `> `
// lines. Every line it writes for the person or for itself ends in two spaces, added after
// the text is stripped, so a `> ` line without them is the first line of a message of several
// lines, of which only the first was quoted; the message runs to a line ending in two spaces
// that is followed by a blank line, a quoted line, the person's input or the file's end
// (what aider writes next always starts so). Replies and input are never written directly
// after a message: a blank line comes first. Pure: reads lines, opens nothing.
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
const isInput = (text: string) => /^####( |$)/.test(text) && endsWithBreak(text);
const isQuoted = (text: string) => text === '>' || text.startsWith('> ');
const quoted = (text: string) => (text === '>' ? '' : text.slice(2));

type Kind = 'header' | 'input' | 'message' | 'reply';

/**
 * The sessions of one chat history, in file order, each with its entries; `before` is called
 * with the lines that come before the first header (a file that does not start with a session).
 */
export function* chatSessions(lines: Iterable<SourceLine>, before?: (line: SourceLine) => void): Iterable<ChatSession> {
  let session: ChatSession | null = null;
  /** The kind of the last line that was not blank, and whether a blank line came after it. */
  let last: Kind | null = null;
  let blankSince = false;
  let reply: { text: string[]; line: number; blanks: number } | null = null;
  let input: { text: string[]; line: number } | null = null;
  /** A message of several lines not yet ended, and whether its last line could be its end. */
  let open: { text: string[]; line: number; mayEnd: boolean } | null = null;

  const closeReply = () => {
    if (reply && session) session.entries.push({ kind: 'reply', text: reply.text.join('\n'), line: reply.line });
    reply = null;
  };
  const closeInput = () => {
    if (input && session) session.entries.push({ kind: 'input', text: input.text.join('\n'), line: input.line });
    input = null;
  };
  const closeOpen = () => {
    if (open && session) {
      const text = open.text;
      text[text.length - 1] = withoutBreak(text[text.length - 1]!);
      session.entries.push({ kind: 'message', text: text.join('\n'), line: open.line });
    }
    open = null;
  };

  for (const source of lines) {
    const text = source.text;
    const header = SESSION_HEADER.exec(text);
    if (header) {
      closeOpen();
      closeReply();
      closeInput();
      if (session) yield session;
      session = { startedAt: header[1]!.trim(), line: source.lineNo, entries: [], lines: [text] };
      last = 'header';
      blankSince = false;
      continue;
    }
    if (!session) {
      before?.(source);
      continue;
    }
    session.lines.push(text);
    if (open) {
      const ends = open.mayEnd && (text === '' || isQuoted(text) || isInput(text));
      if (!ends) {
        open.text.push(text);
        open.mayEnd = endsWithBreak(text);
        continue;
      }
      closeOpen();
      last = 'message';
      blankSince = false;
    }
    if (text === '') {
      if (reply) reply.blanks++;
      blankSince = true;
      continue;
    }
    if (isInput(text) && (blankSince || last === 'input')) {
      closeReply();
      const typed = withoutBreak(text.slice(5));
      if (input && last === 'input' && !blankSince) input.text.push(typed);
      else {
        closeInput();
        input = { text: [typed], line: source.lineNo };
      }
      last = 'input';
      blankSince = false;
      continue;
    }
    // A quoted line inside a reply's paragraph is the reply's (aider never writes a message
    // there); after a blank line it is aider's, as aider's own reader takes it.
    const afterOwnLine = last === 'message' || last === 'input' || last === 'header';
    if (isQuoted(text) && (blankSince || last !== 'reply') && (endsWithBreak(text) || afterOwnLine)) {
      closeReply();
      closeInput();
      if (endsWithBreak(text)) session.entries.push({ kind: 'message', text: withoutBreak(quoted(text)), line: source.lineNo });
      else open = { text: [quoted(text)], line: source.lineNo, mayEnd: false };
      last = 'message';
      blankSince = false;
      continue;
    }
    closeInput();
    if (reply && last === 'reply') {
      for (; reply.blanks > 0; reply.blanks--) reply.text.push('');
      reply.text.push(text);
    } else {
      closeReply();
      reply = { text: [text], line: source.lineNo, blanks: 0 };
    }
    last = 'reply';
    blankSince = false;
  }
  closeOpen();
  closeReply();
  closeInput();
  if (session) yield session;
}
