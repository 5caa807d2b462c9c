import { useState } from 'react';

/** The MCP server a user chooses to start for a real environment: command, arguments, working directory. */
export interface McpServerChoice {
  command: string;
  args: string;
  cwd: string;
}

/** The fields' state, seeded with what the form should show first (e.g. a server a trajectory names). */
export function useMcpServerChoice(initial: Partial<McpServerChoice> = {}) {
  const [choice, setChoice] = useState<McpServerChoice>({ command: initial.command ?? '', args: initial.args ?? '', cwd: initial.cwd ?? '' });
  return [choice, setChoice] as const;
}

/** The server settings as the contract takes them (arguments split on spaces, empty fields left out). */
export function mcpServerSettings(choice: McpServerChoice): { command: string; args: string[]; cwd?: string } {
  return { command: choice.command.trim(), args: choice.args.split(' ').filter(Boolean), ...(choice.cwd.trim() ? { cwd: choice.cwd.trim() } : {}) };
}

/** The three inputs both the Record form and the Run real dialog ask for when the environment is MCP. */
export function McpServerFields({ choice, onChange, commandLabel }: { choice: McpServerChoice; onChange: (next: McpServerChoice) => void; commandLabel: string }) {
  return (
    <>
      <label>
        {commandLabel}
        <input value={choice.command} onChange={(e) => onChange({ ...choice, command: e.target.value })} spellCheck={false} />
      </label>
      <label>
        Arguments (space-separated; folders named here are shared with the server, read-write)
        <input value={choice.args} onChange={(e) => onChange({ ...choice, args: e.target.value })} spellCheck={false} />
      </label>
      <label>
        Working directory (optional; shared read-only, relative arguments resolve against it)
        <input value={choice.cwd} onChange={(e) => onChange({ ...choice, cwd: e.target.value })} spellCheck={false} />
      </label>
    </>
  );
}
