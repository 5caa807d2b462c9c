import { useLayoutEffect, useRef, useState } from 'react';
import { lastLine, liveTail } from '../../state/sample-streams';
import { useSimulation } from '../../state/simulation';

/**
 * A model's reasoning, collapsed to its latest line by default; opened, the text (while it
 * streams, its latest part), kept scrolled to the end as it grows unless the reader scrolled
 * up. `x` opens or closes all. Always text, never HTML.
 */
export function ReasoningText({ text, thinking, label = 'Reasoning' }: { text: string | null; thinking: boolean; label?: string }) {
  const expanded = useSimulation((s) => s.reasoningExpanded);
  const [open, setOpen] = useState(expanded);
  // The `x` key opens or closes every reasoning view; each can still be toggled on its own after.
  const [followed, setFollowed] = useState(expanded);
  if (followed !== expanded) {
    setFollowed(expanded);
    setOpen(expanded);
  }
  const pre = useRef<HTMLPreElement>(null);
  const pinned = useRef(true);
  useLayoutEffect(() => {
    const el = pre.current;
    if (el && open && pinned.current) el.scrollTop = el.scrollHeight;
  }, [text, open]);
  if (!text && !thinking) return null;
  const tail = thinking ? liveTail(text ?? '') : { shown: text ?? '', omitted: 0 };
  return (
    <details
      className="reasoning"
      open={open}
      data-testid="sample-reasoning"
      onToggle={(e) => {
        const now = (e.currentTarget as HTMLDetailsElement).open;
        if (now !== open) setOpen(now);
      }}
    >
      <summary>
        {label}
        {thinking ? ' (thinking…)' : ''}
        {!open && text && <span className="reasoning-tail muted"> {lastLine(text)}</span>}
      </summary>
      {open && (
        <pre
          ref={pre}
          className="text small"
          data-testid="sample-reasoning-text"
          onScroll={(e) => {
            const el = e.currentTarget;
            pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
          }}
        >
          {tail.omitted > 0 && <span className="muted">… {tail.omitted.toLocaleString('en-US')} earlier characters (all kept, shown when the sample ends){'\n'}</span>}
          {tail.shown}
        </pre>
      )}
    </details>
  );
}
