import { useEffect, useState, type DragEvent } from 'react';
import { loadApp, useUiStore } from '../state/workspace-actions';
import { cancelImport, importFiles } from '../state/import-actions';
import { followMenuCommands } from '../state/menu-commands';
import { followChanges } from '../state/change-events';
import { listenForKeptDeletions } from '../state/cleanup-actions';
import { listenForSimulation, refreshModel } from '../state/simulation';
import { Notices } from './Notices';
import { StartScreen } from './StartScreen';
import { StudioView } from './StudioView';

/**
 * Asks the main process what is open, then the model state: only once it answered, so a
 * refused connection is one notice and Try again brings the model panel back too.
 */
async function connectToMain(onFailed: () => void): Promise<void> {
  if (await loadApp()) await refreshModel();
  else onFailed();
}

function ConnectingScreen({ failed, retry }: { failed: boolean; retry: () => void }) {
  return (
    <main className="start" aria-busy={!failed}>
      <h1>Worldloom</h1>
      {failed ? (
        <p>
          Worldloom could not reach its main process (the notice says why).{' '}
          <button onClick={retry}>Try again</button>
        </p>
      ) : (
        <p className="muted">Connecting…</p>
      )}
    </main>
  );
}

export function App() {
  const workspace = useUiStore((s) => s.workspace);
  const app = useUiStore((s) => s.app);
  const [connection, setConnection] = useState<'connecting' | 'failed'>('connecting');
  const busy = useUiStore((s) => s.busy);
  const importing = useUiStore((s) => s.importJob);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    void connectToMain(() => setConnection('failed'));
    listenForSimulation();
    // Every event of the core goes through one router (state/change-events.ts).
    followChanges();
    listenForKeptDeletions();
    return followMenuCommands();
  }, []);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const files = [...e.dataTransfer.files];
    if (files.length && useUiStore.getState().workspace) void importFiles(files);
  };

  return (
    <div
      className="app"
      onDragOver={(e) => {
        e.preventDefault();
        if (workspace) setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={onDrop}
    >
      {workspace ? (
        <StudioView />
      ) : app ? (
        <StartScreen app={app} />
      ) : (
        // Until the main process answers, the start screen would be a guess: a workspace may already be open.
        <ConnectingScreen
          failed={connection === 'failed'}
          retry={() => {
            setConnection('connecting');
            void connectToMain(() => setConnection('failed'));
          }}
        />
      )}
      {dragging && <div className="drop-overlay">Drop trajectory files to import them</div>}
      {busy && (
        <div className="busy" role="status">
          <div className="busy-bar" />
          {importing ? (
            <>
              {importing.label}
              {importing.total ? ` · ${Math.floor((100 * importing.done) / importing.total)}%` : importing.done ? ` · ${importing.done}` : ''}…{' '}
              <button className="link" disabled={importing.cancelling} onClick={() => void cancelImport()}>
                Cancel
              </button>
            </>
          ) : (
            <>{busy}…</>
          )}
        </div>
      )}
      <Notices />
    </div>
  );
}
