// Monaco comes from the locally bundled `monaco-editor` package, never from a CDN (the app
// runs offline under a strict CSP), and its workers are bundled by Vite as worker chunks.
// Only the editor core and the JSON and XML languages are loaded: states are text, MCP
// results JSON, Android hierarchies XML; the full bundle would triple the download.
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/languages/features/json/register';
import 'monaco-editor/languages/definitions/xml/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';
import type { Domain } from '../../../../src-main/common/trajectory/model';

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    return label === 'json' ? new JsonWorker() : new EditorWorker();
  },
};

loader.config({ monaco });

monaco.editor.defineTheme('worldloom', {
  base: 'vs-dark',
  inherit: true,
  rules: [],
  colors: { 'editor.background': '#14161a' },
});

/** The Monaco language a domain's observation is written in. */
export function languageOf(domain: Domain, text: string): string {
  if (domain === 'mcp' && /^\s*[{[]/.test(text)) return 'json';
  if (domain === 'android' && /^\s*</.test(text)) return 'xml';
  return 'plaintext';
}

export const EDITOR_OPTIONS = {
  theme: 'worldloom',
  minimap: { enabled: false },
  wordWrap: 'on',
  scrollBeyondLastLine: false,
  fontSize: 12,
  lineNumbersMinChars: 3,
  automaticLayout: true,
  renderWhitespace: 'boundary',
  unicodeHighlight: { ambiguousCharacters: false },
} as const;
