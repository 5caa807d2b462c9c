// The lines every opencode reader turns a session into, whatever kept it: `{"session": info}`,
// then for each message in order `{"message": info}` followed by `{"part": part}` for each of its
// parts in order. The objects are opencode's own (packages/opencode/src/session: Session.Info,
// MessageV2.Info and MessageV2.Part), with the ids its database keeps in columns put back, as
// opencode itself does when it reads a row. Bounded by what they decode to, as every import is.
import { ImportFormatError } from '../../parsing/import-item';
import { MAX_IMPORT_BYTES, MAX_LINE_BYTES } from '../../parsing/json-limits';
import { builtLinesSource, type ImportSource, type SourceLine } from '../../parsing/sources';

export type Rec = Record<string, unknown>;
export const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** Collects the lines of one import, refusing past `maxBytes` with what to do instead. */
export class RecordLines {
  readonly lines: SourceLine[] = [];
  private bytes = 0;

  constructor(
    private readonly name: string,
    private readonly maxBytes = MAX_IMPORT_BYTES,
  ) {}

  private push(text: string): void {
    const lineNo = this.lines.length + 1;
    if (text.length > MAX_LINE_BYTES) {
      this.lines.push({ lineNo, text: '', error: `an opencode record longer than ${mib(MAX_LINE_BYTES)} was skipped` });
      return;
    }
    this.bytes += text.length;
    if (this.bytes > this.maxBytes) throw new ImportFormatError(`${this.name} holds more than ${mib(this.maxBytes)} of sessions; import one session at a time (worldloom sessions lists them), or raise the limit with worldloom import --max-mib.`);
    this.lines.push({ lineNo, text });
  }

  session(info: Rec): void {
    this.push(JSON.stringify({ session: info }));
  }

  message(info: Rec): void {
    this.push(JSON.stringify({ message: info }));
  }

  part(part: Rec): void {
    this.push(JSON.stringify({ part }));
  }

  /** Something opencode kept that could not be read: said at its place, the rest read on. */
  unreadable(what: string): void {
    this.lines.push({ lineNo: this.lines.length + 1, text: '', error: what });
  }

  /** The lines as a source; a caller that asks for the whole text gets the head it needs. */
  source(): ImportSource {
    return builtLinesSource(this.name, this.lines);
  }
}

/**
 * An `opencode export` document ({info, messages: [{info, parts}]}, what `opencode export
 * <session>` prints) as lines; null when the text is not one.
 */
export function exportDocumentLines(text: string, name: string, maxBytes?: number): ImportSource | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRec(doc) || !isRec(doc.info) || !Array.isArray(doc.messages)) return null;
  const out = new RecordLines(name, maxBytes);
  out.session(doc.info);
  for (const [i, m] of doc.messages.entries()) {
    if (!isRec(m) || !isRec(m.info)) {
      out.unreadable(`messages[${i}] has no info: not a message as opencode exports it`);
      continue;
    }
    out.message(m.info);
    for (const p of Array.isArray(m.parts) ? m.parts : []) if (isRec(p)) out.part(p);
  }
  return out.source();
}
