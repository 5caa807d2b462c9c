import { useState } from 'react';
import { loadExactPrompt, messagesAsJson, useExactPrompt } from '../../state/exact-prompt';
import { notify } from '../../state/workspace-actions';

function CopyButton({ text, what }: { text: string; what: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={() =>
        void navigator.clipboard.writeText(text).then(
          () => setCopied(true),
          (err: Error) => notify('error', `Could not copy ${what}`, [err.message, 'Select the text and copy it by hand.']),
        )
      }
    >
      {copied ? 'Copied' : `Copy ${what}`}
    </button>
  );
}

/** What the model was sent for this node: the chat messages, and the text after the chat template where the engine renders it. Text only. */
export function ExactPrompt({ nodeId }: { nodeId: string }) {
  const [open, setOpen] = useState(false);
  const shown = useExactPrompt((s) => (s.nodeId === nodeId ? s : null));
  const prompt = shown?.prompt ?? null;
  return (
    <details
      className="exact-prompt"
      onToggle={(e) => {
        const now = (e.currentTarget as HTMLDetailsElement).open;
        setOpen(now);
        if (now) void loadExactPrompt(nodeId);
      }}
    >
      <summary>Show the exact prompt</summary>
      {open && shown?.error && (
        <p className="error" role="alert">
          Could not build the prompt: {shown.error}{' '}
          <button type="button" className="link" onClick={() => void loadExactPrompt(nodeId)}>
            Retry
          </button>
        </p>
      )}
      {open && !prompt && !shown?.error && <p className="muted">Building the prompt…</p>}
      {open && prompt && (
        <div className="exact-prompt-body" data-testid="exact-prompt">
          <p className="muted small">
            {prompt.source === 'imported' ? 'The imported benchmark prompt, used as it is.' : 'Built from the tree.'} Prompt hash {prompt.promptHash.slice(0, 12)}.
            {Object.keys(prompt.templateKwargs).length > 0 && <> Template variables: {JSON.stringify(prompt.templateKwargs)}.</>}
          </p>
          <div className="row">
            <CopyButton text={messagesAsJson(prompt)} what="the messages" />
            {prompt.rendered !== null && <CopyButton text={prompt.rendered} what="the templated text" />}
          </div>
          {prompt.messages.map((m, i) => (
            <div key={i} className="prompt-message">
              <h4>{m.role}</h4>
              <pre className="text small" data-testid="prompt-message">
                {m.content}
              </pre>
            </div>
          ))}
          <h4>With the chat template applied</h4>
          {prompt.rendered !== null ? (
            <pre className="text small" data-testid="prompt-rendered">
              {prompt.rendered}
            </pre>
          ) : null}
          <p className="muted small">{prompt.renderNote}</p>
        </div>
      )}
    </details>
  );
}
