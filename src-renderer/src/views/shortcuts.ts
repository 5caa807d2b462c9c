// The studio's keyboard shortcuts: one table, read by the key handler and by the help
// overlay (`?`), so what the overlay lists is exactly what the keys do.
import { redo, setCuration, startEditing, toggleStar, undo } from '../state/curation-actions';
import { useStudio } from '../state/store';
import { changeLayout, setHelpOpen, setInspectorView, toggleRaw } from '../state/view-actions';
import { runOrCancelSimulation, toggleReasoningExpanded } from '../state/simulation';

export interface Shortcut {
  keys: string;
  what: string;
  /** Keys handled by the tree itself are listed but not dispatched here. */
  run?: (e: KeyboardEvent) => void;
  matches?: (e: KeyboardEvent) => boolean;
}

const selected = () => useStudio.getState().selectedNodeId;
const focusField = (name: string) => document.querySelector<HTMLElement>(`[data-shortcut-target="${name}"]`)?.focus();
const plain = (key: string) => (e: KeyboardEvent) => e.key === key && !e.ctrlKey && !e.metaKey && !e.altKey;
const mod = (e: KeyboardEvent) => e.ctrlKey || e.metaKey;

export const SHORTCUTS: Shortcut[] = [
  { keys: '↑ ↓  or  j k', what: 'previous / next node in the tree' },
  { keys: '→ ←  or  l h', what: 'expand / collapse (← on a leaf goes to the parent)' },
  { keys: 'Enter', what: 'expand or collapse the selected branch' },
  { keys: 'Backspace', what: 'go to the parent node' },
  { keys: 'Home End PageUp PageDown', what: 'first / last / a page up / a page down' },
  { keys: 'Ctrl+Z', what: 'undo the last edit or mark', matches: (e) => mod(e) && !e.shiftKey && e.key.toLowerCase() === 'z', run: () => void undo() },
  {
    keys: 'Ctrl+Shift+Z  or  Ctrl+Y',
    what: 'redo',
    matches: (e) => mod(e) && ((e.shiftKey && e.key.toLowerCase() === 'z') || (!e.shiftKey && e.key.toLowerCase() === 'y')),
    run: () => void redo(),
  },
  { keys: 's', what: 'star or unstar the selected node', matches: plain('s'), run: () => selected() && void toggleStar(selected()!) },
  {
    keys: '1 … 5',
    what: 'rate the selected node (the same key again clears)',
    matches: (e) => /^[1-5]$/.test(e.key) && !mod(e) && !e.altKey,
    run: (e) => {
      const id = selected();
      const node = id ? useStudio.getState().tree?.byId.get(id) : undefined;
      const r = Number(e.key);
      if (node) void setCuration(node.id, { rating: node.rating === r ? null : r });
    },
  },
  { keys: 't', what: 'add a tag', matches: plain('t'), run: () => focusField('tag') },
  { keys: 'e', what: 'edit the action and observation', matches: plain('e'), run: () => selected() && startEditing(selected()!) },
  { keys: 'r', what: 'raw text ⇄ domain view', matches: plain('r'), run: toggleRaw },
  { keys: 'd', what: 'diff an edited state with its original', matches: plain('d'), run: () => setInspectorView('diff') },
  {
    keys: 'Ctrl+Enter',
    what: 'simulate the action typed in the simulate panel at the selected node; while it runs, cancel it',
    matches: (e) => mod(e) && !e.shiftKey && !e.altKey && e.key === 'Enter',
    run: () => runOrCancelSimulation() || focusField('simulate-action'),
  },
  { keys: 'x', what: 'expand or collapse the reasoning of streamed and unfinished samples', matches: plain('x'), run: toggleReasoningExpanded },
  { keys: '/', what: 'search the workspace', matches: plain('/'), run: () => focusField('search') },
  {
    keys: '[  ]',
    what: 'fold away the trajectory list / the inspector',
    matches: (e) => plain('[')(e) || plain(']')(e),
    run: (e) => {
      const { layout } = useStudio.getState();
      changeLayout(e.key === '[' ? { listCollapsed: !layout.listCollapsed } : { inspectorCollapsed: !layout.inspectorCollapsed });
    },
  },
  { keys: '?', what: 'show or hide this help', matches: (e) => e.key === '?', run: () => setHelpOpen(!useStudio.getState().helpOpen) },
  { keys: 'Esc', what: 'close this help, cancel an edit, clear the search box', matches: plain('Escape'), run: () => setHelpOpen(false) },
];

/** Typing in a field, an editor or the terminal keeps its keys to itself. */
function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.closest) return false;
  return Boolean(el.closest('input, textarea, select, [contenteditable="true"], .monaco-editor, .xterm'));
}

export function handleShortcut(e: KeyboardEvent): void {
  if (e.defaultPrevented || isTyping(e.target)) return;
  const shortcut = SHORTCUTS.find((s) => s.matches?.(e));
  if (!shortcut?.run) return;
  shortcut.run(e);
  e.preventDefault();
}
