// Intents that change only how the studio looks: the help overlay, raw text, the layout.
import { writeLayout, type Layout } from './layout';
import { useUiStore, type InspectorView } from './workspace-actions';

const set = useUiStore.setState;
const get = useUiStore.getState;

export function setHelpOpen(open: boolean): void {
  set({ helpOpen: open });
}

export function setInspectorView(view: InspectorView): void {
  set({ inspectorView: view });
}

/** The raw text of the selected node's state, one keystroke away (`r`), and back. */
export function toggleRaw(): void {
  set({ inspectorView: get().inspectorView === 'raw' ? 'rendered' : 'raw' });
}

export function changeLayout(patch: Partial<Layout>): void {
  const layout = { ...get().layout, ...patch };
  set({ layout });
  writeLayout(layout);
}
