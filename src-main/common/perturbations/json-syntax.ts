// Where a JSON text first breaks, for error messages. JSON.parse decides validity; its
// messages carry no position in current V8 ("Unexpected token ',', ..."), so a user
// with a broken perturbation file would not know where to look. This scanner follows the
// JSON grammar just far enough to find the first offending character.

export function jsonSyntaxErrorAt(text: string): { line: number; column: number } | undefined {
  let i = 0;
  const literal = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
  const fail = (): never => {
    throw i;
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      i += text[i] === '\\' ? 2 : 1;
    }
    if (i >= text.length) fail();
    i++;
  };
  const members = (close: string, member: () => void) => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      member();
      space();
      if (text[i] === ',') i++;
      else if (text[i] === close) return void i++;
      else fail();
    }
  };
  const value = (): void => {
    space();
    if (text[i] === '{') {
      return members('}', () => {
        space();
        if (text[i] !== '"') fail();
        string();
        space();
        if (text[i] !== ':') fail();
        i++;
        value();
      });
    }
    if (text[i] === '[') return members(']', value);
    if (text[i] === '"') return string();
    literal.lastIndex = i;
    if (!literal.test(text)) fail();
    i = literal.lastIndex;
  };
  try {
    value();
    space();
    if (i < text.length) fail();
    return undefined;
  } catch (at) {
    if (typeof at !== 'number') throw at;
    const before = text.slice(0, at).split('\n');
    return { line: before.length, column: before[before.length - 1]!.length + 1 };
  }
}
