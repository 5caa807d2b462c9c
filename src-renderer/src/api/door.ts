// Connects the UI to the core: through the preload bridge in Electron, or through the
// host's WebSocket (token from the page URL) in a plain browser tab.
import type { Door, Envelope } from '../../../src-main/common/contract/api';

declare global {
  interface Window {
    worldloom?: Door;
  }
}

type Pending = { resolve: (e: Envelope<unknown>) => void };

const LOST =
  'Lost the connection to `worldloom serve` before it answered. Check that it is still running; the next action reconnects (if you restarted it, open the new link it printed).';

let lastArrival = 0;
/** When the latest reply reached this page (performance.now()), before it was parsed: for timings. */
export function lastMessageArrivedAt(): number {
  return lastArrival;
}

function webSocketDoor(): Door {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const listeners = new Set<(event: string, payload: unknown) => void>();
  let nextId = 1;
  let socket: WebSocket;
  let ready: Promise<void>;
  // Calls wait on the socket they were sent on: when a socket closes, only its own calls fail,
  // never those already sent on the one dialled after it.
  let pending: Map<number, Pending>;

  const connect = () => {
    const mine = new Map<number, Pending>();
    const dialled = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api?token=${encodeURIComponent(token)}`);
    socket = dialled;
    pending = mine;
    ready = new Promise((resolve, reject) => {
      dialled.addEventListener('open', () => resolve(), { once: true });
      dialled.addEventListener('error', () => reject(new Error('connection failed')), { once: true });
    });
    // A refused connection is reported by the next invoke; nobody else needs to hear of it.
    ready.catch(() => undefined);
    dialled.addEventListener('message', (msg) => {
      lastArrival = performance.now();
      const data = JSON.parse(String(msg.data)) as
        | { type: 'result'; id: number; envelope: Envelope<unknown> }
        | { type: 'event'; event: string; payload: unknown };
      if (data.type === 'result') {
        mine.get(data.id)?.resolve(data.envelope);
        mine.delete(data.id);
      } else {
        for (const l of listeners) l(data.event, data.payload);
      }
    });
    dialled.addEventListener('close', () => {
      for (const p of mine.values()) {
        p.resolve({
          ok: false,
          error: {
            code: 'disconnected',
            message: LOST,
          },
        });
      }
      mine.clear();
    });
  };
  connect();

  return {
    async invoke(method, input) {
      // A socket that closed or was refused is dialled again, so "Try again" works once the host is back.
      if (socket.readyState === WebSocket.CLOSED || socket.readyState === WebSocket.CLOSING) connect();
      const sending = socket;
      const waiting = pending;
      const opened = ready;
      try {
        await opened;
      } catch {
        return {
          ok: false,
          error: {
            code: 'disconnected',
            message: token
              ? 'Could not connect to `worldloom serve`. Check that it is running and open the exact URL it printed.'
              : 'This page needs the link printed by `worldloom serve` (it carries an access token).',
          },
        };
      }
      // It may have closed while this call waited for it to open.
      if (sending.readyState !== WebSocket.OPEN) return { ok: false, error: { code: 'disconnected', message: LOST } };
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, { resolve });
        sending.send(JSON.stringify({ id, method, input }));
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const door: Door = window.worldloom ?? webSocketDoor();
