import { notify } from '../../state/workspace-actions';

/** Copies text to the clipboard, or says where to select it when the page may not write there. */
export async function copyText(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify('info', `Copied the ${what}`, [text]);
  } catch {
    notify('info', `Select the ${what} to copy it`, [text]);
  }
}

/** An id as the CLI takes it (`--node`, `--trajectory`), shown in full and copied with one click. */
export function CopyableId({ id, what, testId }: { id: string; what: string; testId?: string }) {
  return (
    <span className="copyable-id">
      <code data-testid={testId} title={`${what} (as the worldloom CLI takes it)`}>
        {id}
      </code>
      <button type="button" className="link small" aria-label={`Copy the ${what}`} title={`Copy the ${what}`} onClick={() => void copyText(id, what)}>
        copy
      </button>
    </span>
  );
}
