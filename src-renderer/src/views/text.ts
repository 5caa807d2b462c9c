// Small text helpers for showing model output and imported text as plain text.
import { toolCallText } from '../../../src-main/common/trajectory/tool-call-text';

/** The first line of a text, shortened to `max` characters. */
export function firstLine(text: string, max = 120): string {
  const end = text.indexOf('\n');
  const line = end === -1 ? text : text.slice(0, end);
  return line.length > max ? line.slice(0, max) + '…' : line;
}

/** A row's text for an action: a tool call as `name(key: value, …)`, anything else as its first line. */
export function actionLine(action: string, max = 120): string {
  const call = toolCallText(action);
  return call !== null ? firstLine(call, max) : firstLine(action, max);
}
