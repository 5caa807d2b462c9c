import { useMemo, useState } from 'react';
import type { FoundSession, SessionSearch } from '../../../../src-main/common/contract/sessions';
import { plural } from '../../../../src-main/common/plural';
import { findSessions, importSessions, replaySessions } from '../../state/sessions';
import { useSimulation } from '../../state/simulation';
import { useUiStore } from '../../state/ui-store';
import './sessions.css';

function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} B`;
}

const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/**
 * The sessions coding agents left in their own folders on this machine: found only when asked,
 * listed newest first with agent, project, date, tool calls and size, and the folders looked
 * in. Import one, several or a project's (scrubbed if asked), then replay them through the
 * loaded world model into one sim-vs-real report.
 */
export function SessionsPanel() {
  const [search, setSearch] = useState<SessionSearch | null>(null);
  const [looking, setLooking] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [scrub, setScrub] = useState(true);
  const [imported, setImported] = useState<string[]>([]);
  const importing = useUiStore((s) => s.importJob !== null);
  const modelLoaded = useSimulation((s) => Boolean(s.model?.loaded));
  const projects = useMemo(() => [...new Set((search?.sessions ?? []).map((s) => s.project ?? ''))].filter(Boolean).sort(), [search]);

  const look = async () => {
    setLooking(true);
    const found = await findSessions();
    setLooking(false);
    if (found) {
      setSearch(found);
      setChosen(new Set());
    }
  };
  const toggle = (s: FoundSession) => {
    const next = new Set(chosen);
    if (next.has(s.path)) next.delete(s.path);
    else next.add(s.path);
    setChosen(next);
  };
  const importThese = async (paths: string[]) => {
    const ids = await importSessions(paths, scrub);
    setImported((before) => [...before, ...ids]);
  };

  return (
    <section className="sheet sessions" aria-label="Sessions on this machine">
      <div className="wide sessions-intro">
        <p>
          Coding agents (Claude Code, Codex, Gemini CLI…) keep every session in a folder of their own. Worldloom reads those folders only when you
          ask, on the machine its core runs on, and sends nothing anywhere.
        </p>
        <button onClick={() => void look()} disabled={looking}>{looking ? 'Looking…' : search ? 'Look again' : 'Find sessions on this machine'}</button>
      </div>
      {search && (
        <>
          <details className="wide" data-testid="sessions-folders">
            <summary>Looked in {plural(search.folders.length, 'folder')}; {plural(search.folders.filter((f) => f.exists).length, 'was', 'were')} there</summary>
            <ul>
              {search.folders.map((f) => (
                <li key={`${f.agent}:${f.path}`}>
                  {f.agent}: <code>{f.path}</code> {f.from !== 'default' && <span className="muted">(from {f.from})</span>} — {f.exists ? plural(f.sessions, 'session') : 'not there'}
                </li>
              ))}
            </ul>
          </details>
          {search.problems.length > 0 && (
            <ul className="wide sessions-problems">
              {search.problems.map((p) => <li key={p.path}>{p.path}: {p.reason}</li>)}
            </ul>
          )}
          {search.sessions.length === 0 ? (
            <p className="wide muted">No sessions in these folders.</p>
          ) : (
            <>
              <div className="wide sessions-actions">
                <label>
                  <input type="checkbox" checked={scrub} onChange={(e) => setScrub(e.target.checked)} /> Scrub on import (API keys, passwords, e-mail addresses, IPs)
                </label>
                <button disabled={chosen.size === 0 || importing} onClick={() => void importThese([...chosen])}>
                  Import {chosen.size ? plural(chosen.size, 'session') : 'the chosen sessions'}
                </button>
                {projects.length > 0 && (
                  <label>
                    All of a project's:{' '}
                    <select
                      aria-label="Import all of a project's sessions"
                      value=""
                      disabled={importing}
                      onChange={(e) => {
                        const project = e.target.value;
                        if (project) void importThese(search.sessions.filter((s) => s.project === project).map((s) => s.path));
                      }}
                    >
                      <option value="">choose a project…</option>
                      {projects.map((p) => <option key={p} value={p}>{p} ({search.sessions.filter((s) => s.project === p).length})</option>)}
                    </select>
                  </label>
                )}
                <button
                  disabled={imported.length === 0 || !modelLoaded}
                  title={!modelLoaded ? 'Load a world model first (Model)' : 'Every step of the sessions imported here, simulated from its real history; the sim-vs-real report opens'}
                  onClick={() => void replaySessions(imported)}
                >
                  Replay {imported.length ? plural(imported.length, 'imported session') : 'imported sessions'} with the loaded model
                </button>
              </div>
              <table className="wide sessions-table" aria-label="Sessions found">
                <thead>
                  <tr><th /><th>date</th><th>agent</th><th>project</th><th>tool calls</th><th>size</th><th>file</th></tr>
                </thead>
                <tbody>
                  {search.sessions.map((s) => (
                    <tr key={s.path}>
                      <td><input type="checkbox" aria-label={`Choose ${s.path}`} checked={chosen.has(s.path)} onChange={() => toggle(s)} /></td>
                      <td>{when(s.modified)}</td>
                      <td>{s.agent}</td>
                      <td>{s.project ?? '–'}</td>
                      <td className="num">{s.toolCalls}</td>
                      <td className="num">{size(s.bytes)}</td>
                      <td className="sessions-path" title={s.path}>{s.path}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </>
      )}
    </section>
  );
}
