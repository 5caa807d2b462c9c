// Recorded keystrokes (asciinema `i` events) replayed through a minimal line editor, to
// recover the command a person submitted with Enter. Pure.

export interface SubmittedLine {
  /** The line as typed; control keys that reach the program are shown in caret notation (^C, ^[). */
  text: string;
  /** True when keys that change the line beyond typing were used (Tab, arrows, ^R…): the echo on screen is more reliable then. */
  edited: boolean;
}

export class LineEditor {
  private line: string[] = [];
  private edited = false;
  private lastWasCR = false;

  /** Forgets the line being typed (the keys went to a full-screen program, not the shell). */
  clear(): void {
    this.line = [];
    this.edited = false;
    this.lastWasCR = false;
  }

  /** True while something has been typed that was not submitted yet. */
  get typing(): boolean {
    return this.line.length > 0;
  }

  /** What has been typed and not submitted yet. */
  get unsubmitted(): string {
    return this.line.join('');
  }

  /** Feeds the data of one input event; returns the lines it submitted, in order. */
  feed(data: string): SubmittedLine[] {
    const out: SubmittedLine[] = [];
    const chars = Array.from(data);
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      const afterCR = this.lastWasCR;
      this.lastWasCR = ch === '\r';
      if (ch === '\r' || ch === '\n') {
        // A pasted "\r\n" is one Enter.
        if (ch === '\n' && afterCR) continue;
        out.push(this.submit(''));
      } else if (ch === '\x7f' || ch === '\b') this.line.pop();
      else if (ch === '\x15') this.line = [];
      else if (ch === '\x17') this.deleteWord();
      else if (ch === '\x03') out.push(this.submit('^C'));
      else if (ch === '\x04') {
        if (this.line.length === 0) out.push(this.submit('^D'));
      } else if (ch === '\x1b') {
        const next = chars[i + 1];
        if (next === '[' || next === 'O') {
          // A cursor or function key: skip the whole escape sequence (ends at a final byte @..~).
          i += 2;
          while (i < chars.length && !/[@-~]/.test(chars[i]!)) i++;
          this.edited = true;
        } else this.line.push('^[');
      } else if (ch === '\t') {
        this.line.push(ch);
        this.edited = true;
      } else if (ch < ' ') {
        this.line.push('^' + String.fromCharCode(ch.charCodeAt(0) + 64));
        this.edited = true;
      } else this.line.push(ch);
    }
    return out;
  }

  private submit(suffix: string): SubmittedLine {
    const result = { text: this.line.join('') + suffix, edited: this.edited };
    this.line = [];
    this.edited = false;
    return result;
  }

  private deleteWord(): void {
    while (this.line.length && this.line[this.line.length - 1] === ' ') this.line.pop();
    while (this.line.length && this.line[this.line.length - 1] !== ' ') this.line.pop();
  }
}

/** Keys as text, control keys in caret notation (Enter is ^M, Escape ^[, Backspace ^?), as `cat -v` shows them. */
export function keyNotation(data: string): string {
  let out = '';
  for (const ch of data) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20) out += '^' + String.fromCharCode(code + 64);
    else if (code === 0x7f) out += '^?';
    else out += ch;
  }
  return out;
}
