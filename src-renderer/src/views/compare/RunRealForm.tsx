import { useEffect, useState } from 'react';
import type { RealEnvironmentSettings } from '../../../../src-main/common/contract/reality';
import { loadSandboxes, runReal, useCompare } from '../../state/compare';
import { nodeRecord, useNodeRecord } from '../../state/node-records';
import { useOverlay } from '../../state/overlays';
import { useUiStore } from '../../state/workspace-actions';
import { McpServerFields, mcpServerSettings, useMcpServerChoice } from './McpServerFields';
import { plural } from '../../../../src-main/common/plural';

/** An MCP server a trajectory's root names (recorded here, or carried in by an imported file). */
function namedServer(provenance: Record<string, unknown> | undefined): { command: string; args: string[]; cwd?: string } | null {
  const settings = (provenance?.environment as { settings?: RealEnvironmentSettings } | undefined)?.settings;
  const mcp = settings?.mcp;
  if (!mcp || typeof mcp.command !== 'string') return null;
  return { command: mcp.command, args: Array.isArray(mcp.args) ? mcp.args.map(String) : [], ...(typeof mcp.cwd === 'string' ? { cwd: mcp.cwd } : {}) };
}

/**
 * Asks before running a path for real: which sandbox it runs in, and for MCP the server to
 * start. A server the trajectory names is shown and must be confirmed; nothing from a
 * trajectory's data runs on its own.
 */
export function RunRealForm({ nodeId, onDone }: { nodeId: string; onDone: () => void }) {
  const rootId = useUiStore((s) => s.tree?.shape.roots[0]);
  const root = useNodeRecord(rootId);
  useEffect(() => loadSandboxes(), []);
  useOverlay('run-real', true, onDone);
  if (!root) {
    return (
      <div className="overlay" onClick={onDone}>
        <p className="overlay-card">Reading the trajectory…</p>
      </div>
    );
  }
  return <RunRealSheet nodeId={nodeId} named={namedServer(root.provenance)} onDone={onDone} />;
}

/** The path's actions from the root to `nodeId`, in full (the tree holds only their first lines); null while they load. */
function usePathActions(nodeId: string): string[] | null {
  const tree = useUiStore((s) => s.tree);
  const [actions, setActions] = useState<{ nodeId: string; actions: string[] } | null>(null);
  useEffect(() => {
    const ids: string[] = [];
    for (let id: string | null | undefined = nodeId; id; id = tree?.byId.get(id)?.parentId) ids.unshift(id);
    let live = true;
    void Promise.all(ids.slice(1).map((id) => nodeRecord(id))).then((records) => {
      if (live && records.every(Boolean)) setActions({ nodeId, actions: records.map((r) => r!.action) });
    });
    return () => {
      live = false;
    };
  }, [nodeId, tree]);
  return actions?.nodeId === nodeId ? actions.actions : null;
}

function RunRealSheet({ nodeId, named, onDone }: { nodeId: string; named: ReturnType<typeof namedServer>; onDone: () => void }) {
  const trajectory = useUiStore((s) => s.trajectory);
  const depth = useUiStore((s) => s.tree?.byId.get(nodeId)?.depth ?? 0);
  const actions = usePathActions(nodeId);
  const [confirmed, setConfirmed] = useState(false);
  const sandboxes = useCompare((s) => s.sandboxes);
  // A server the trajectory names fills the fields, for the user to read, change or clear.
  const [server, setServer] = useMcpServerChoice({ command: named?.command, args: named?.args.join(' '), cwd: named?.cwd });
  if (!trajectory) return null;
  const domain = trajectory.domain;
  const sandbox = sandboxes.find((s) => s.domain === domain);
  const mcp = domain === 'mcp';
  const ready = sandbox?.available !== false && (!mcp || server.command.trim() !== '') && actions !== null && confirmed;
  const environment: RealEnvironmentSettings = mcp ? { mcp: mcpServerSettings(server) } : {};
  return (
    <div className="overlay" onClick={onDone}>
      <form
        className="overlay-card run-real"
        role="dialog"
        aria-label="Run real"
        onClick={(e) => e.stopPropagation()}
        onSubmit={(e) => {
          e.preventDefault();
          onDone();
          if (actions) void runReal(nodeId, trajectory.id, environment, actions);
        }}
      >
        <h2>Run this path for real</h2>
        <p>
          Runs the {plural(depth, 'action')} from the root to the selected step in a fresh real {domain} environment and puts
          each real observation beside the simulated one.
        </p>
        <p className="run-real-sandbox" data-testid="run-real-sandbox">
          Sandbox: {sandbox ? (sandbox.available ? sandbox.sandbox : `${sandbox.sandbox}. ${sandbox.problem ?? ''}`) : 'checking…'}
        </p>
        {/* The actions may come from a shared file: they run only once the user has read them. */}
        <ol className="run-real-steps" aria-label="Steps to run" data-testid="run-real-steps">
          {actions ? actions.map((action, i) => <li key={i}><code>{action}</code></li>) : <li>Reading the steps…</li>}
        </ol>
        <label>
          <input type="checkbox" checked={confirmed} disabled={!actions} onChange={(e) => setConfirmed(e.target.checked)} /> I have read these steps: run them
          on this machine
        </label>
        {mcp && named && (
          <p className="warning" role="alert">
            This trajectory names the server below. It came with the trajectory&apos;s data, not from you: check the command before you run
            it, or replace it with your own.
          </p>
        )}
        {mcp && <McpServerFields choice={server} onChange={setServer} commandLabel="MCP server command" />}
        <div className="row">
          <button type="submit" disabled={!ready}>
            Run {plural(depth, 'step')} for real
          </button>
          <button type="button" onClick={onDone}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  );
}
