import { useEffect, useRef, useState } from 'react';
import { DOMAINS, type Domain } from '../../../src-main/common/trajectory/model';
import { redo, undo } from '../state/curation-actions';
import { hasQuery } from '../state/search-actions';
import { createTrajectory, useUiStore } from '../state/workspace-actions';
import { importFiles, pickAndImport } from '../state/import-actions';
import { listenForOverlayEscape, useOverlays } from '../state/overlays';
import { WorkspaceMenu } from './WorkspaceMenu';
import { changeLayout, setHelpOpen } from '../state/view-actions';
import { HelpOverlay } from './HelpOverlay';
import { ConfirmDeletion } from './ConfirmDeletion';
import { PaneSplitter } from './PaneSplitter';
import { SearchPanel } from './search/SearchPanel';
import { handleShortcut } from './shortcuts';
import { NodeInspector } from './NodeInspector';
import { ModelPanel } from './simulate/ModelPanel';
import { modelDisplayName } from './simulate/model-name';
import { EvaluationPanel } from './evaluation/EvaluationPanel';
import { SessionsPanel } from './sessions/SessionsPanel';
import { RecordForm } from './compare/RecordForm';
import { useSimulation } from '../state/simulation';
import { TrajectoryList } from './TrajectoryList';
import { TreeView } from './TreeView';
import { ExportDialog } from './dataset/ExportDialog';
import { CompareLauncher } from './compare/CompareLauncher';
import { ExpandDialog } from './agents/ExpandDialog';
import { NEW_TRAJECTORY_EVENT } from './TrajectoryList';
import { plural } from '../../../src-main/common/plural';

/** The panels that open as dialogs over the workspace, by their title. */
const PANEL_TITLES = { model: 'World model', evaluation: 'Evaluation', export: 'Export dataset' } as const;

export function StudioView() {
  const workspace = useUiStore((s) => s.workspace)!;
  const nativeDialogs = useUiStore((s) => s.app?.nativeDialogs ?? false);
  const trajectory = useUiStore((s) => s.trajectory);
  const fileInput = useRef<HTMLInputElement>(null);
  const [panel, setPanel] = useState<'none' | 'new' | 'export' | 'model' | 'evaluation' | 'record' | 'expand' | 'sessions'>('none');
  const model = useSimulation((s) => s.model);

  const layout = useUiStore((s) => s.layout);
  const history = useUiStore((s) => s.history);
  const searching = useUiStore((s) => hasQuery(s.search.filters));
  // Under a dialog (help, Sim vs real, a confirmation) nothing else can be clicked or tabbed to.
  const underOverlay = useOverlays((s) => s.open.length > 0);

  useEffect(() => {
    const open = () => setPanel('export');
    const openExpand = () => setPanel('expand');
    const openNew = () => setPanel('new');
    document.addEventListener('worldloom:export', open);
    document.addEventListener('worldloom:expand', openExpand);
    document.addEventListener(NEW_TRAJECTORY_EVENT, openNew);
    document.addEventListener('keydown', handleShortcut);
    const stopEscape = listenForOverlayEscape();
    // Esc closes the open panel (New trajectory, Model, Export…) wherever the focus is (the
    // tree included), except from a field, where it would throw away what was typed; a dialog
    // above it closes first (state/overlays.ts), and a row menu that handles Esc keeps it.
    const closePanel = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || useOverlays.getState().open.length > 0) return;
      const el = e.target as HTMLElement | null;
      if (el?.closest?.('input, textarea, select, [contenteditable="true"], .monaco-editor')) return;
      setPanel('none');
    };
    document.addEventListener('keydown', closePanel);
    return () => {
      document.removeEventListener('keydown', closePanel);
      document.removeEventListener('worldloom:export', open);
      document.removeEventListener('worldloom:expand', openExpand);
      document.removeEventListener(NEW_TRAJECTORY_EVENT, openNew);
      document.removeEventListener('keydown', handleShortcut);
      stopEscape();
    };
  }, []);
  const nextUndo = history.past.at(-1)?.label;
  const nextRedo = history.future.at(-1)?.label;
  const columns = [
    layout.listCollapsed ? '28px' : `${layout.listWidth}px`,
    '4px',
    'minmax(240px, 1fr)',
    '4px',
    layout.inspectorCollapsed ? '28px' : `${layout.inspectorWidth}px`,
  ].join(' ');

  const startImport = async () => {
    if (nativeDialogs) {
      await pickAndImport();
    } else fileInput.current?.click();
  };

  return (
    <div className="studio">
      <header className="toolbar" inert={underOverlay}>
        <span className="brand">Worldloom</span>
        <WorkspaceMenu onNewTrajectory={() => setPanel('new')} />
        {/* The file's name keeps its place at any width; the whole path is a hover (and the Workspace menu) away. */}
        <span className="workspace-path" title={workspace.path} data-testid="workspace-path">
          {workspace.path.split(/[\\/]/).pop() || workspace.path}
        </span>
        <span className="muted workspace-counts">
          {plural(workspace.trajectories, 'trajectory', 'trajectories')} · {plural(workspace.steps, 'step')}
        </span>
        <span className="spacer" />
        <button onClick={() => setPanel(panel === 'record' ? 'none' : 'record')}>Record…</button>
        <button onClick={() => setPanel(panel === 'evaluation' ? 'none' : 'evaluation')}>Evaluation</button>
        <button className="model-button" onClick={() => setPanel(panel === 'model' ? 'none' : 'model')} title="World model">
          Model: {model?.loading ? 'loading…' : model?.loaded ? `${modelDisplayName(model.loaded)} · ${model.loaded.device}` : 'none'}
        </button>
        <button className="icon-button" aria-label="Undo" onClick={() => void undo()} disabled={!nextUndo} title={nextUndo ? `Undo the ${nextUndo} (Ctrl+Z)` : 'Nothing to undo'}>
          ↶
        </button>
        <button className="icon-button" aria-label="Redo" onClick={() => void redo()} disabled={!nextRedo} title={nextRedo ? `Redo the ${nextRedo} (Ctrl+Shift+Z)` : 'Nothing to redo'}>
          ↷
        </button>
        <button onClick={() => void startImport()}>Import…</button>
        <button onClick={() => setPanel(panel === 'sessions' ? 'none' : 'sessions')} title="Sessions coding agents keep on this machine: find, import, replay">Sessions…</button>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          data-testid="import-input"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            if (files.length) void importFiles(files);
          }}
        />
        <CompareLauncher />
        <button onClick={() => setPanel(panel === 'expand' ? 'none' : 'expand')} title="Let a policy expand the selected node: K actions, M samples each, D levels (g)">
          Expand…
        </button>
        <button onClick={() => setPanel(panel === 'export' ? 'none' : 'export')}>Export…</button>
        <button aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" onClick={() => setHelpOpen(true)}>
          ?
        </button>
      </header>
      {/* Model, Evaluation and Export float over the workspace as dialogs instead of pushing it down; Esc or × closes them. */}
      {(panel === 'model' || panel === 'evaluation' || panel === 'export') && (
        <div className={`sheets floating floating-${panel}`} role="dialog" aria-label={PANEL_TITLES[panel]} inert={underOverlay}>
          <div className="floating-head">
            <h2>{PANEL_TITLES[panel]}</h2>
            <button type="button" className="icon-button" aria-label={`Close the ${PANEL_TITLES[panel]} dialog`} title="Close (Esc)" onClick={() => setPanel('none')}>
              ×
            </button>
          </div>
          {panel === 'model' && <ModelPanel onDone={() => setPanel('none')} />}
          {panel === 'evaluation' && <EvaluationPanel />}
          {panel === 'export' && <ExportDialog onDone={() => setPanel('none')} />}
        </div>
      )}
      <div className="sheets" inert={underOverlay}>
        {panel === 'new' && <NewTrajectoryForm onDone={() => setPanel('none')} />}
        {panel === 'sessions' && <SessionsPanel />}
        {panel === 'record' && <RecordForm onDone={() => setPanel('none')} />}
        {panel === 'expand' && <ExpandDialog onDone={() => setPanel('none')} />}
      </div>
      <div className="panes" style={{ gridTemplateColumns: columns }} inert={underOverlay}>
        <aside className={`pane pane-list${layout.listCollapsed ? ' folded' : ''}`}>
          <FoldButton folded={layout.listCollapsed} label="trajectories and search" shortcut="[" onToggle={() => changeLayout({ listCollapsed: !layout.listCollapsed })} />
          {!layout.listCollapsed && (
            <>
              <SearchPanel />
              {!searching && <TrajectoryList />}
            </>
          )}
        </aside>
        <PaneSplitter width={layout.listWidth} sign={1} label="Resize the trajectory list" onResize={(w) => changeLayout({ listWidth: w, listCollapsed: false })} />
        <section className="pane pane-tree">
          {trajectory ? (
            <TreeView />
          ) : (
            <p className="muted pad">
              Choose a trajectory, import a file (or drop one here), or{' '}
              <button type="button" className="link" onClick={() => setPanel('new')}>
                start a new trajectory
              </button>
              .
            </p>
          )}
        </section>
        <PaneSplitter width={layout.inspectorWidth} sign={-1} label="Resize the inspector" onResize={(w) => changeLayout({ inspectorWidth: w, inspectorCollapsed: false })} />
        <section className={`pane pane-inspector${layout.inspectorCollapsed ? ' folded' : ''}`}>
          <FoldButton folded={layout.inspectorCollapsed} label="inspector" shortcut="]" onToggle={() => changeLayout({ inspectorCollapsed: !layout.inspectorCollapsed })} />
          {!layout.inspectorCollapsed && <NodeInspector />}
        </section>
      </div>
      <HelpOverlay />
      <ConfirmDeletion />
    </div>
  );
}

function FoldButton({ folded, label, shortcut, onToggle }: { folded: boolean; label: string; shortcut: '[' | ']'; onToggle(): void }) {
  // The list folds to the left, the inspector to the right; the arrow points where the pane goes.
  const towardsLeft = (shortcut === '[') !== folded;
  return (
    <button className="fold-button" aria-label={`${folded ? 'Show' : 'Hide'} the ${label}`} title={`${folded ? 'Show' : 'Hide'} the ${label} (${shortcut})`} onClick={onToggle}>
      {towardsLeft ? '‹' : '›'}
    </button>
  );
}

/** What the first state of a new trajectory looks like in each domain, as the empty field hints it. */
const INITIAL_STATE_HINTS: Partial<Record<Domain, string>> = {
  terminal: 'e.g. agent@box:~$',
  swe: 'e.g. the repository checked out at /repo, tests failing',
  mcp: 'e.g. the tools the server offers, or nothing',
};

function NewTrajectoryForm({ onDone }: { onDone: () => void }) {
  // Defaults a user can create at once: the open trajectory's domain, a title naming it, and the domain's own template as the environment description.
  const [domain, setDomain] = useState<Domain>(useUiStore.getState().trajectory?.domain ?? 'terminal');
  const [title, setTitle] = useState(`New ${domain} trajectory`);
  const [systemPrompt, setSystemPrompt] = useState('');
  const [initialState, setInitialState] = useState('');
  const changeDomain = (next: Domain) => {
    // A title still at its default follows the domain.
    if (title === `New ${domain} trajectory`) setTitle(`New ${next} trajectory`);
    setDomain(next);
  };
  return (
    <form
      className="sheet"
      aria-label="New trajectory"
      onSubmit={(e) => {
        e.preventDefault();
        void createTrajectory({ title: title.trim(), domain, systemPrompt, initialState }).then((ok) => ok && onDone());
      }}
    >
      <label>
        Title <input value={title} onChange={(e) => setTitle(e.target.value)} required />
      </label>
      <label>
        Domain
        <select value={domain} onChange={(e) => changeDomain(e.target.value as Domain)}>
          {DOMAINS.map((d) => (
            <option key={d}>{d}</option>
          ))}
        </select>
      </label>
      <label>
        Environment description (system prompt)
        <textarea
          value={systemPrompt}
          onChange={(e) => setSystemPrompt(e.target.value)}
          rows={3}
          placeholder={`Leave empty to use the ${domain} domain's template (resources/prompts/${domain}.md), or describe this environment`}
        />
      </label>
      <label>
        Initial state
        <textarea value={initialState} onChange={(e) => setInitialState(e.target.value)} rows={3} placeholder={INITIAL_STATE_HINTS[domain] ?? 'What the environment shows before the first action (may be empty)'} />
      </label>
      <div className="row">
        <button type="submit" disabled={!title.trim()}>
          Create
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
