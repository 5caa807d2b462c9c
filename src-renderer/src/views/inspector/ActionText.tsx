import { toolCallText } from '../../../../src-main/common/trajectory/tool-call-text';

/**
 * A step's action as text. A tool call reads `name(key: value, …)`, its exact JSON (what the
 * agent emitted, and what an export writes) one click away.
 */
export function ActionText({ action }: { action: string }) {
  const call = toolCallText(action);
  if (call === null) {
    return (
      <pre className="text" data-testid="node-action">
        {action}
      </pre>
    );
  }
  return (
    <div className="tool-call">
      <pre className="text" data-testid="node-action" title={action}>
        {call}
      </pre>
      <details>
        <summary className="muted small">Exact JSON</summary>
        <pre className="text small" data-testid="node-action-json">
          {prettyJson(action)}
        </pre>
      </details>
    </div>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
