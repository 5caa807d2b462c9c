import { useState } from 'react';
import type { AppInfo } from '../../../src-main/common/contract/api';
import { openDemoWorkspace, openWorkspace, pickAndOpenWorkspace } from '../state/workspace-actions';

/** Shown once the main process has said that no workspace is open. */
export function StartScreen({ app }: { app: AppInfo }) {
  const [path, setPath] = useState('');
  const suggested = `${app.defaultWorkspaceDir}/my-world.worldloom`;


  return (
    <main className="start">
      <h1>Worldloom</h1>
      <p className="muted">Explore, curate and debug what a language world model predicts, path by path.</p>
      {app.nativeDialogs ? (
        <div className="row">
          <button onClick={() => void pickAndOpenWorkspace('create')}>New workspace…</button>
          <button onClick={() => void pickAndOpenWorkspace('open')}>Open workspace…</button>
        </div>
      ) : (
        <form
          className="start-form"
          onSubmit={(e) => {
            e.preventDefault();
          }}
        >
          <label htmlFor="workspace-path">Workspace file (on the machine running worldloom serve)</label>
          <input
            id="workspace-path"
            value={path}
            placeholder={suggested}
            onChange={(e) => setPath(e.target.value)}
            spellCheck={false}
          />
          <div className="row">
            <button type="button" disabled={!path.trim()} onClick={() => void openWorkspace(path.trim(), 'create')}>
              Create workspace
            </button>
            <button type="button" disabled={!path.trim()} onClick={() => void openWorkspace(path.trim(), 'open')}>
              Open workspace
            </button>
          </div>
        </form>
      )}
      <p>
        <button className="link" onClick={() => void openDemoWorkspace()}>
          Open the demo workspace
        </button>{' '}
        <span className="muted">— real recorded terminal and MCP sessions to simulate from.</span>
      </p>
      {app.recent.length > 0 && (
        <section>
          <h2>Recent</h2>
          <ul className="recent">
            {app.recent.map((p) => (
              <li key={p}>
                <button className="link" onClick={() => void openWorkspace(p, 'open')}>
                  {p}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
