import { useEffect, useState } from 'react';
import { dismissNotice, useUiStore, type Notice } from '../state/workspace-actions';

/** How long an information notice stays: long enough to read its lines; errors stay until closed. */
export function noticeLifetimeMs(notice: Pick<Notice, 'kind' | 'lines'>): number | null {
  if (notice.kind === 'error') return null;
  return Math.min(20_000, 6_000 + 1_500 * notice.lines.length);
}

/**
 * Notices sit in a strip below the panes, in the page's flow, so they never cover a button;
 * information goes away by itself (not while the pointer or the focus is on it), errors stay
 * until their × is clicked.
 */
export function Notices() {
  const notices = useUiStore((s) => s.notices);
  if (notices.length === 0) return null;
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <NoticeCard key={n.id} notice={n} />
      ))}
    </div>
  );
}

function NoticeCard({ notice: n }: { notice: Notice }) {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    const lifetime = noticeLifetimeMs(n);
    if (lifetime === null || held) return;
    const timer = setTimeout(() => dismissNotice(n.id), lifetime);
    return () => clearTimeout(timer);
  }, [n, held]);
  return (
    <div
      className={`notice notice-${n.kind}`}
      role={n.kind === 'error' ? 'alert' : 'status'}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <div className="notice-head">
        <strong>{n.title}</strong>
        <button className="notice-close" aria-label={`Dismiss: ${n.title}`} title={n.kind === 'error' ? 'Dismiss' : 'Dismiss (goes away by itself)'} onClick={() => dismissNotice(n.id)}>
          ×
        </button>
      </div>
      {n.lines.length > 0 && (
        <ul>
          {n.lines.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
