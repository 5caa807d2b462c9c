// How a tool call reads as an action, shared by the formats that record tool calls (MCP
// logs, ATIF): one line of compact JSON `{"name", "arguments"}`, the shape Qwen-family
// chat templates use inside <tool_call>, so the action is what the agent emitted.
export function toolCallAction(name: string, args: unknown): string {
  return JSON.stringify({ name, arguments: args ?? {} });
}

/** JSON values as observations are pretty-printed: line diffs and side-by-side views need lines. */
export function jsonObservation(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

const SHELL_TOOL = /bash|shell|terminal|execute_command|run_command|exec|^run$|^sh$|^cmd$/i;
const COMMAND_FIELDS = ['command', 'cmd', 'keystrokes', 'script'] as const;

/**
 * The command a shell tool call runs, when the call is nothing but that (`execute_command`
 * with `{command}`): a terminal action is the command as typed, not its JSON wrapper.
 */
export function shellCommandOf(name: string, args: unknown): string | null {
  if (!SHELL_TOOL.test(name) || typeof args !== 'object' || args === null || Array.isArray(args)) return null;
  const entries = Object.entries(args as Record<string, unknown>);
  if (entries.length !== 1) return null;
  const [key, value] = entries[0]!;
  return (COMMAND_FIELDS as readonly string[]).includes(key) && typeof value === 'string' ? value : null;
}
