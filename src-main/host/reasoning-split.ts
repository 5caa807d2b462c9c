// Splits a stream of model text, reasoning inline in <think>…</think> (as every engine's
// stream carries it), into `reasoning_content` and `content` deltas, as an OpenAI-compatible
// server with a reasoning parser sends them. A tag cut between two pieces is held back until
// it is whole, so no "<thi" ever reaches either field.
const OPEN = '<think>';
const CLOSE = '</think>';

export interface SplitDelta {
  reasoning: string;
  content: string;
}

export class ReasoningSplitter {
  private state: 'start' | 'reasoning' | 'content' = 'start';
  private held = '';
  /** Content right after the reasoning starts with the blank lines templates put there; they are not the answer. */
  private contentStarted = false;

  push(text: string): SplitDelta {
    this.held += text;
    const out: SplitDelta = { reasoning: '', content: '' };
    for (;;) {
      if (this.state === 'start') {
        const lead = this.held.trimStart();
        if (lead.length < OPEN.length && OPEN.startsWith(lead)) return out;
        if (lead.startsWith(OPEN)) {
          this.held = lead.slice(OPEN.length);
          this.state = 'reasoning';
        } else if (this.held.includes(CLOSE)) {
          // A template that opened the think block in the prompt leaves only the closing tag.
          this.state = 'reasoning';
        } else {
          this.state = 'content';
        }
        continue;
      }
      if (this.state === 'reasoning') {
        const close = this.held.indexOf(CLOSE);
        if (close >= 0) {
          out.reasoning += this.held.slice(0, close);
          this.held = this.held.slice(close + CLOSE.length);
          this.state = 'content';
          continue;
        }
        const keep = partialTagLength(this.held, CLOSE);
        out.reasoning += this.held.slice(0, this.held.length - keep);
        this.held = this.held.slice(this.held.length - keep);
        return out;
      }
      let text = this.held;
      if (!this.contentStarted) {
        text = text.replace(/^[ \t]*(?:\r?\n[ \t]*)*\r?\n/, '');
        if (text.trim() === '') {
          this.held = '';
          return out;
        }
        this.contentStarted = true;
      }
      out.content += text;
      this.held = '';
      return out;
    }
  }

  /** What is still held back at the end (a lone "<thi" was text after all). */
  end(): SplitDelta {
    const rest = this.held;
    this.held = '';
    if (this.state === 'reasoning') return { reasoning: rest, content: '' };
    return { reasoning: '', content: this.contentStarted ? rest : rest.trim() === '' ? '' : rest };
  }

  /** Splits a whole text at once. */
  static split(text: string): SplitDelta {
    const splitter = new ReasoningSplitter();
    const a = splitter.push(text);
    const b = splitter.end();
    return { reasoning: a.reasoning + b.reasoning, content: a.content + b.content };
  }
}

/** How many characters at the end of `text` could be the start of `tag`. */
function partialTagLength(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
