// The studio's keyboard shortcuts: one table, read by the key handler and by the help
// overlay (`?`), so what the overlay lists is exactly what the keys do. Each shortcut belongs
// to a place: the studio's own keys do nothing under an overlay, Sim vs real's only while it
// is open, and the keys for anywhere work in both.
import { redo, setCuration, startEditing, toggleStar, undo } from '../state/curation-actions';
import { deleteNode } from '../state/cleanup-actions';
import { useUiStore } from '../state/workspace-actions';
import { changeLayout, setHelpOpen, setInspectorView, toggleRaw } from '../state/view-actions';
import { runOrCancelSimulation, toggleReasoningExpanded } from '../state/simulation';
import { nextDivergence } from '../state/compare';
import { topOverlay } from '../state/overlays';

/** Where a shortcut works; the help lists the shortcuts in this order, under these headings. */
export const SHORTCUT_PLACES = {
  studio: 'Tree and inspector',
  compare: 'Sim vs real',
  anywhere: 'Anywhere',
} as const;
export type ShortcutPlace = keyof typeof SHORTCUT_PLACES;

export interface Shortcut {
  keys: string;
  what: string;
  /** Where it works; the studio when left out. */
  place?: ShortcutPlace;
  /** Keys handled by the tree itself are listed but not dispatched here. */
  run?: (e: KeyboardEvent) => void;
  matches?: (e: KeyboardEvent) => boolean;
}

const selected = () => useUiStore.getState().selectedNodeId;
const focusField = (name: string) => document.querySelector<HTMLElement>(`[data-shortcut-target="${name}"]`)?.focus();
const plain = (key: string) => (e: KeyboardEvent) => e.key === key && !e.ctrlKey && !e.metaKey && !e.altKey;
const mod = (e: KeyboardEvent) => e.ctrlKey || e.metaKey;

export const SHORTCUTS: Shortcut[] = [
  { keys: '↑ ↓  or  j k', what: 'previous / next node in the tree' },
  { keys: '→ ←  or  l h', what: 'expand / collapse (← on a leaf goes to the parent)' },
  { keys: 'Enter', what: 'unfold or fold the children of the selected node' },
  { keys: 'Backspace', what: 'go to the parent node' },
  { keys: 'Home End PageUp PageDown', what: 'first / last / a page up / a page down' },
  { keys: 'Ctrl+Z', what: 'undo the last change: edit, mark, simulation, perturbation, import, delete, rename', matches: (e) => mod(e) && !e.shiftKey && e.key.toLowerCase() === 'z', run: () => void undo() },
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
      const node = id ? useUiStore.getState().tree?.byId.get(id) : undefined;
      const r = Number(e.key);
      if (node) void setCuration(node.id, { rating: node.rating === r ? null : r });
    },
  },
  {
    keys: 'Delete',
    what: 'delete the selected node with the steps below it (Ctrl+Z brings them back)',
    matches: (e) => e.key === 'Delete' && !mod(e) && !e.altKey && !e.shiftKey,
    run: () => selected() && void deleteNode(selected()!),
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
  { keys: 'g', what: 'grow the selected node with a policy (Expand…: K actions, M samples, D levels)', matches: plain('g'), run: () => document.dispatchEvent(new Event('worldloom:expand')) },
  { keys: '/', what: 'search the workspace', matches: plain('/'), run: () => focusField('search') },
  // Handled where they are typed: the search box and the state editor.
  { keys: 'Enter', what: 'in the search box: open the first result' },
  { keys: 'Ctrl+S', what: 'in the state editor: save the edited state beside the original' },
  {
    keys: '[  ]',
    what: 'fold away the trajectory list / the inspector',
    matches: (e) => plain('[')(e) || plain(']')(e),
    run: (e) => {
      const { layout } = useUiStore.getState();
      changeLayout(e.key === '[' ? { listCollapsed: !layout.listCollapsed } : { inspectorCollapsed: !layout.inspectorCollapsed });
    },
  },
  { keys: 'n', what: 'next divergence', place: 'compare', matches: plain('n'), run: () => nextDivergence(1) },
  { keys: 'p  or  Shift+N', what: 'previous divergence', place: 'compare', matches: (e) => plain('p')(e) || plain('N')(e), run: () => nextDivergence(-1) },
  { keys: '?', what: 'show or hide this help', place: 'anywhere', matches: (e) => e.key === '?', run: () => setHelpOpen(!useUiStore.getState().helpOpen) },
  {
    keys: 'Esc',
    what: 'close the topmost dialog (this help, Sim vs real, a confirmation), else the open panel (New trajectory, Model, Export…); in an editor, cancel the edit; in the search box, clear it',
    place: 'anywhere',
    // Handled where it applies: dialogs from a capture listener (state/overlays.ts), before an
    // editor inside them sees the key; panels in StudioView; the editor and the search box themselves.
  },
];

/** The place whose keys work now: the topmost overlay's, or the studio's when none is open. */
function currentPlace(): ShortcutPlace | null {
  const top = topOverlay();
  if (!top) return 'studio';
  return top === 'compare' ? 'compare' : null;
}

/** Typing in a field, an editor or the terminal keeps its keys to itself; Sim vs real's diff is read-only. */
function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.closest) return false;
  if (el.closest('.compare .monaco-editor')) return false;
  return Boolean(el.closest('input, textarea, select, [contenteditable="true"], .monaco-editor, .xterm'));
}

/** The keys the tree handles itself (TreeView), listed in the first rows of the table. */
const TREE_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'j', 'k', 'h', 'l', 'Home', 'End', 'PageUp', 'PageDown', 'Backspace']);

/**
 * With the focus nowhere (a closed panel, a removed editor, a click on plain text), the tree's
 * keys go to the tree, which takes the focus: moving never needs a click on the tree first.
 */
function sendToTree(e: KeyboardEvent): boolean {
  if (e.target !== document.body && e.target !== document.documentElement) return false;
  if (!TREE_KEYS.has(e.key) || e.ctrlKey || e.metaKey || e.altKey) return false;
  const tree = document.querySelector<HTMLElement>('[role="tree"]');
  if (!tree) return false;
  tree.focus({ preventScroll: true });
  tree.dispatchEvent(new KeyboardEvent('keydown', { key: e.key, shiftKey: e.shiftKey, bubbles: true, cancelable: true }));
  return true;
}

export function handleShortcut(e: KeyboardEvent): void {
  if (e.defaultPrevented || isTyping(e.target)) return;
  const place = currentPlace();
  if (place === 'studio' && sendToTree(e)) {
    e.preventDefault();
    return;
  }
  const shortcut = SHORTCUTS.find((s) => ((s.place ?? 'studio') === place || s.place === 'anywhere') && s.matches?.(e));
  if (!shortcut?.run) return;
  shortcut.run(e);
  e.preventDefault();
}
