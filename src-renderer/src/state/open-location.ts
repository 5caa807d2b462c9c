// The open trajectory and node live in the page's address (#trajectory=…&node=…), so a
// reload, or a link copied from the address bar, reopens them. Replaced in place: moving
// through a tree adds nothing to the browser's history.

export interface OpenLocation {
  trajectoryId: string;
  nodeId: string | null;
}

/** The trajectory and node an address names, or null when it names none. */
export function parseOpenLocation(hash: string): OpenLocation | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const trajectoryId = params.get('trajectory');
  return trajectoryId ? { trajectoryId, nodeId: params.get('node') } : null;
}

export function formatOpenLocation(location: OpenLocation | null): string {
  if (!location) return '';
  const params = new URLSearchParams({ trajectory: location.trajectoryId, ...(location.nodeId ? { node: location.nodeId } : {}) });
  return `#${params.toString()}`;
}

/** A selection's address waiting to be written (see rememberSelectedLocation). */
let pending: { location: OpenLocation; timer: ReturnType<typeof setTimeout> } | null = null;
/** How long moving through the tree waits before writing the address: the last node counts. */
const SELECTION_WRITE_MS = 150;

function writePending(): void {
  if (!pending) return;
  const { location, timer } = pending;
  clearTimeout(timer);
  pending = null;
  rememberOpenLocation(location);
}

/**
 * The selected node's address, written once the selection rests: replaceState costs a few
 * milliseconds, too much for every key held down in the tree. A page that goes away first
 * writes it at once, so a reload still reopens the node.
 */
export function rememberSelectedLocation(location: OpenLocation): void {
  if (typeof window === 'undefined') return;
  if (pending) clearTimeout(pending.timer);
  else window.addEventListener('pagehide', writePending, { once: true });
  pending = { location, timer: setTimeout(writePending, SELECTION_WRITE_MS) };
}

/** Writes what is open into the address (the query, which holds the host's token, is kept). */
export function rememberOpenLocation(location: OpenLocation | null): void {
  if (pending && pending.location !== location) {
    // A newer address than the selection's waiting one: that one is dropped.
    clearTimeout(pending.timer);
    pending = null;
  }
  if (typeof window === 'undefined' || !window.history?.replaceState) return;
  const hash = formatOpenLocation(location);
  if (hash === window.location.hash || (hash === '' && window.location.hash === '')) return;
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}${hash}`);
}

/** What the address asks to open, read once when the page loads. */
export function requestedOpenLocation(): OpenLocation | null {
  return typeof window === 'undefined' ? null : parseOpenLocation(window.location.hash);
}
