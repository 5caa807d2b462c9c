// Connects the UI to the core: through the preload bridge in Electron, or through the
// host's WebSocket (token from the page URL) in a plain browser tab.
import type { Door, Envelope } from '../../../src-main/contract/api';

declare global {
  interface Window {
    worldloom?: Door;
  }
}

type Pending = { resolve: (e: Envelope<unknown>) => void };

let lastArrival = 0;
/** When the latest reply reached this page (performance.now()), before it was parsed: for timings. */
export function lastMessageArrivedAt(): number {
  return lastArrival;
}

function webSocketDoor(): Door {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let socket: WebSocket;
  let ready: Promise<void>;

  const connect = () => {
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api?token=${encodeURIComponent(token)}`);
    ready = new Promise((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error('connection failed')), { once: true });
    });
    // A refused connection is reported by the next invoke; nobody else needs to hear of it.
    ready.catch(() => undefined);
    socket.addEventListener('message', (msg) => {
      lastArrival = performance.now();
      const data = JSON.parse(String(msg.data)) as
        | { type: 'result'; id: number; envelope: Envelope<unknown> }
        | { type: 'event'; event: string; payload: unknown };
      if (data.type === 'result') {
        pending.get(data.id)?.resolve(data.envelope);
        pending.delete(data.id);
      } else {
        for (const l of listeners) l(data.event, data.payload);
      }
    });
    socket.addEventListener('close', () => {
      for (const p of pending.values()) {
        p.resolve({ ok: false, error: { code: 'disconnected', message: 'Lost the connection to `worldloom serve`. Check that it is still running, then reload the page.' } });
      }
      pending.clear();
    });
  };
  connect();

  return {
    async invoke(method, input) {
      // A socket that closed or was refused is dialled again, so "Try again" works once the host is back.
      if (socket.readyState === WebSocket.CLOSED || socket.readyState === WebSocket.CLOSING) connect();
      try {
        await ready;
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
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, { resolve });
        socket.send(JSON.stringify({ id, method, input }));
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const door: Door = window.worldloom ?? webSocketDoor();
