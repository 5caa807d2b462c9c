import { DiffEditor, type DiffOnMount } from '@monaco-editor/react';
import { useEffect, useRef } from 'react';
import { EDITOR_OPTIONS, EDITOR_THEME } from './setup';

type DiffEditorInstance = Parameters<DiffOnMount>[0];

interface Props {
  original: string;
  modified: string;
  language: string;
  height: number | string;
  /** Fall back to one column when the pane is narrow. */
  inlineWhenNarrow?: boolean;
}

/**
 * Two texts in Monaco's read-only diff editor, sides scrolled together. It disposes its
 * own editor before its models: the wrapper would dispose the models first, which Monaco
 * reports as an error on every unmount.
 */
export function TextDiff({ original, modified, language, height, inlineWhenNarrow = true }: Props) {
  const editor = useRef<DiffEditorInstance | null>(null);
  useEffect(
    () => () => {
      const models = editor.current?.getModel();
      editor.current?.dispose();
      models?.original.dispose();
      models?.modified.dispose();
    },
    [],
  );
  return (
    <DiffEditor
      theme={EDITOR_THEME}
      height={height}
      original={original}
      modified={modified}
      language={language}
      options={{ ...EDITOR_OPTIONS, readOnly: true, originalEditable: false, renderSideBySide: true, useInlineViewWhenSpaceIsLimited: inlineWhenNarrow }}
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      onMount={(e) => (editor.current = e)}
    />
  );
}
