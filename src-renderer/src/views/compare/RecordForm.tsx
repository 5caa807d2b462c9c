import { useState } from 'react';
import { record } from '../../state/compare';
import { McpServerFields, mcpServerSettings, useMcpServerChoice } from './McpServerFields';
import { plural } from '../../../../src-main/common/plural';

/** Record a real session: one action per line, run in a fresh sandboxed environment. */
export function RecordForm({ onDone }: { onDone: () => void }) {
  const [domain, setDomain] = useState<'terminal' | 'mcp' | 'web'>('terminal');
  const [title, setTitle] = useState('');
  const [actions, setActions] = useState('');
  const [server, setServer] = useMcpServerChoice();
  const lines = actions.split('\n').filter((l) => l.trim());
  const hint =
    domain === 'terminal'
      ? 'one shell command per line (runs under bubblewrap: throwaway home, no network)'
      : domain === 'mcp'
        ? 'one tool call per line as JSON: {"name": "...", "arguments": {...}}'
        : 'one action per line: goto URL, click REF, type REF TEXT, scroll, press KEY, back';
  return (
    <form
      className="sheet"
      aria-label="Record a real session"
      onSubmit={(e) => {
        e.preventDefault();
        const mcp = mcpServerSettings(server);
        void record({ domain, title: title.trim(), actions: lines, mcpCommand: mcp.command || undefined, mcpArgs: mcp.args, mcpCwd: mcp.cwd }).then(
          (ok) => ok && onDone(),
        );
      }}
    >
      <label>
        Environment
        <select value={domain} onChange={(e) => setDomain(e.target.value as typeof domain)}>
          <option value="terminal">terminal</option>
          <option value="mcp">mcp</option>
          <option value="web">web</option>
        </select>
      </label>
      <label>
        Title <input value={title} onChange={(e) => setTitle(e.target.value)} />
      </label>
      {domain === 'mcp' && (
        <McpServerFields
          choice={server}
          onChange={setServer}
          commandLabel="MCP server command (started over stdio in a bubblewrap sandbox where the system has one: no network, only folders named in its arguments)"
        />
      )}
      <label className="wide">
        Actions — {hint}
        <textarea value={actions} onChange={(e) => setActions(e.target.value)} rows={6} spellCheck={false} />
      </label>
      <div className="row">
        <button type="submit" disabled={lines.length === 0 || (domain === 'mcp' && !server.command.trim())}>
          Record {plural(lines.length, 'step')}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
