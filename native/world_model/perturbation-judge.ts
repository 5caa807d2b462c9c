// Whether an instruction-mode perturbation shows its condition. The target is what the same
// kind's transform mode makes of the real observation; the lines it adds (ignoring web
// references) are the condition, and at least half of their text must be in the prediction.
// Two readings, both reported by eval.ts:
//
// - exact lines: the prediction contains those lines as they are. A model that writes
//   "bash: rm: command not found" for `which python3` misses, because it named the wrong
//   command: that is a copying error, and it is also counted by the similarity scores.
// - condition: the same lines with the names taken from the action and every number left
//   free. "bash: rm: command not found" shows command-not-found; "404 Not Found" for a rate
//   limit does not, nor does an answer without the truncation note, whatever its count says.

const stripRefs = (line: string) => line.replace(/\s*\[ref=[\w]+\]/g, '').trim();

/** The lines the transform added to the real observation. */
function addedLines(target: string, real: string): string[] {
  const realLines = new Set(real.split('\n').map(stripRefs));
  return [...new Set(target.split('\n').map(stripRefs))].filter((l) => l !== '' && !realLines.has(l));
}

/** Words of the action: a path, a command, a file name. */
const WORD = /[\w./~-]+/g;

function actionWords(action: string): Set<string> {
  return new Set((action.match(WORD) ?? []).filter((w) => /[A-Za-z]/.test(w)));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A line as a pattern: the action's words match any word, numbers match any number, the rest as written. */
function conditionPattern(line: string, fromAction: Set<string>): RegExp {
  let pattern = '';
  let at = 0;
  for (const match of line.matchAll(WORD)) {
    pattern += escape(line.slice(at, match.index));
    const word = match[0];
    if (fromAction.has(word)) pattern += '[\\w.\\/~-]+';
    else pattern += word.split(/(\d+)/).map((part, i) => (i % 2 === 1 ? '\\d+' : escape(part))).join('');
    at = match.index + word.length;
  }
  pattern += escape(line.slice(at));
  return new RegExp(`^${pattern}$`);
}

/**
 * Half of the added text, by characters: a line of JSON punctuation (`],`) or a flag
 * (`"isError": true`) that any error answer has must not outweigh the message itself.
 */
function halfShown(added: readonly string[], isShown: (line: string) => boolean): boolean {
  const size = (lines: readonly string[]) => lines.reduce((sum, line) => sum + line.length, 0);
  return size(added.filter(isShown)) >= size(added) / 2;
}

/** At least half of the added text is in the prediction, line by line as it is. */
export function exactLinesShown(predicted: string, target: string, real: string): boolean {
  const added = addedLines(target, real);
  if (added.length === 0) return predicted.trim() === target.trim();
  const shown = new Set(predicted.split('\n').map(stripRefs));
  return halfShown(added, (line) => shown.has(line));
}

/** At least half of the added text is in the prediction, with the action's words and all numbers free. */
export function conditionShown(predicted: string, target: string, real: string, action: string): boolean {
  const added = addedLines(target, real);
  if (added.length === 0) return predicted.trim() === target.trim();
  const fromAction = actionWords(action);
  const shown = predicted.split('\n').map(stripRefs);
  return halfShown(added, (line) => {
    const pattern = conditionPattern(line, fromAction);
    return shown.some((candidate) => pattern.test(candidate));
  });
}
