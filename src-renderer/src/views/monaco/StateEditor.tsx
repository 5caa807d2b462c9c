import { Editor, type OnMount } from '@monaco-editor/react';
import { useRef } from 'react';
import type { Domain, NodeRecord } from '../../../../src-main/common/trajectory/model';
import { saveEdit, stopEditing } from '../../state/curation-actions';
import { focusTree } from '../../state/overlays';
import { EDITOR_OPTIONS, EDITOR_THEME, languageOf } from './setup';

type CodeEditor = Parameters<OnMount>[0];

export function editorHeight(text: string, min = 60, max = 460): number {
  return Math.max(min, Math.min(max, text.split('\n').length * 18 + 12));
}

/**
 * The selected state in two editors. Saving writes a new node (origin `edited`) beside the
 * original, which stays as it was; the inspector then shows the two against each other.
 */
export default function StateEditor({ node, domain }: { node: NodeRecord; domain: Domain }) {
  const action = useRef<CodeEditor | null>(null);
  const observation = useRef<CodeEditor | null>(null);

  const save = () => {
    if (!action.current || !observation.current) return;
    // The editors go away: the focus goes back to the tree, so j/k work at once.
    void saveEdit(node.id, action.current.getValue(), observation.current.getValue()).then((edit) => edit && focusTree());
  };
  const cancel = () => {
    stopEditing();
    focusTree();
  };
  const onActionMount: OnMount = (editor, monaco) => {
    action.current = editor;
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, save);
  };
  const onObservationMount: OnMount = (editor, monaco) => {
    observation.current = editor;
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, save);
    editor.focus();
  };

  return (
    <form
      className="state-editor"
      aria-label="Edit the state"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') cancel();
      }}
    >
      <p className="muted small">Saving keeps the original and adds the edited state beside it (Ctrl+S saves, Esc cancels).</p>
      <h3>Action</h3>
      <div className="editor-frame" data-testid="edit-action">
        <Editor theme={EDITOR_THEME} height={editorHeight(node.action, 40, 160)} defaultValue={node.action} language="plaintext" options={EDITOR_OPTIONS} onMount={onActionMount} />
      </div>
      <h3>Observation</h3>
      <div className="editor-frame" data-testid="edit-observation">
        <Editor
          theme={EDITOR_THEME}
          height={editorHeight(node.observation, 120)}
          defaultValue={node.observation}
          language={languageOf(domain, node.observation)}
          options={EDITOR_OPTIONS}
          onMount={onObservationMount}
        />
      </div>
      <div className="row">
        <button type="submit">Save as edited state</button>
        <button type="button" onClick={cancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
