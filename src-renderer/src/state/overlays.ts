// Modal views register here while they are shown, so Esc closes the topmost one wherever the
// focus is (Monaco and inputs inside an overlay included), and what lies under an overlay
// (the toolbar, the panes) is inert until it closes: nothing under it can be clicked or
// reached with Tab, so two Close buttons on screen can never be confused.
import { useEffect, useRef } from 'react';
import { areaHook } from './ui-store';

export const useOverlays = areaHook('overlays');

/** How each open overlay closes; not state, as nothing renders from it. */
const closers = new Map<string, () => void>();
/** Where the focus was when the first overlay opened: it goes back there when the last one closes. */
let focusBefore: HTMLElement | null = null;

function opened(name: string, close: () => void): void {
  const open = useOverlays.getState().open;
  if (open.length === 0) focusBefore = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  closers.set(name, close);
  useOverlays.setState({ open: [...open.filter((n) => n !== name), name] });
}

function closed(name: string): void {
  closers.delete(name);
  const open = useOverlays.getState().open.filter((n) => n !== name);
  useOverlays.setState({ open });
  if (open.length === 0) {
    const back = focusBefore;
    focusBefore = null;
    // After React has removed the overlay (and `inert` from the page under it).
    queueMicrotask(() => restoreFocus(back));
  }
}

/** The element that had the focus, if it is still there and usable; else the tree, so keys work at once. */
function restoreFocus(back: HTMLElement | null): void {
  if (back && back.isConnected && !back.closest('[inert]') && back !== document.body) back.focus();
  else focusTree();
}

/** Moves the focus to the trajectory tree, where j/k and the arrows work. */
export function focusTree(): void {
  document.querySelector<HTMLElement>('[role="tree"]')?.focus({ preventScroll: true });
}

/**
 * Registers an overlay while `open` is true (and the component is mounted); `close` is what Esc
 * does. The overlay itself must be rendered outside the toolbar, the sheets and the panes (with
 * createPortal to document.body, or after them in the studio), which go inert while it is open.
 */
export function useOverlay(name: string, open: boolean, close: () => void): void {
  const closeRef = useRef(close);
  useEffect(() => {
    closeRef.current = close;
  });
  useEffect(() => {
    if (!open) return;
    opened(name, () => closeRef.current());
    return () => closed(name);
  }, [name, open]);
}

/** Closes the topmost overlay; false when none is open. */
export function closeTopOverlay(): boolean {
  const top = useOverlays.getState().open.at(-1);
  if (!top) return false;
  closers.get(top)?.();
  return true;
}

export function topOverlay(): string | undefined {
  return useOverlays.getState().open.at(-1);
}

/**
 * Esc closes the topmost overlay before anything inside it sees the key (Monaco keeps Esc to
 * itself otherwise). Listened to in the capture phase on the window, once for the page.
 */
export function listenForOverlayEscape(): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing) return;
    if (!closeTopOverlay()) return;
    e.preventDefault();
    e.stopPropagation();
  };
  window.addEventListener('keydown', onKey, true);
  return () => window.removeEventListener('keydown', onKey, true);
}
