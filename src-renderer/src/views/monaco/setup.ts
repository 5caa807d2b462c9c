// Monaco comes from the locally bundled `monaco-editor` package, never from a CDN (the app
// runs offline under a strict CSP), and its workers are bundled by Vite as worker chunks.
// Only the editor core and the JSON and XML languages are loaded: states are text, MCP
// results JSON, Android hierarchies XML; the full bundle would triple the download.
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/languages/features/json/register';
import 'monaco-editor/languages/definitions/xml/register';
// The icon font (fold arrows, diff gutter, find widget). Without this it came only with the JSON
// language's lazily loaded chunk, so a plain-text editor or diff drew empty boxes.
import 'monaco-editor/features/codicon/register';
// The diff editor's breadcrumbs over folded regions need the outline service. The JSON language's
// lazily loaded chunk brings the breadcrumbs in; loaded after the editor services started, their
// service was unknown and every diff editor made afterwards logged an error. Registered here,
// before the first editor, the service is there.
import 'monaco-editor/features/diffEditorBreadcrumbs/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';
import type { Domain } from '../../../../src-main/common/trajectory/model';

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    return label === 'json' ? new JsonWorker() : new EditorWorker();
  },
};

loader.config({ monaco });

/** The studio's dark theme. Every editor names it as its `theme` prop too: the React wrapper sets its own default ('light') after creating an editor otherwise. */
export const EDITOR_THEME = 'worldloom';
monaco.editor.defineTheme(EDITOR_THEME, {
  base: 'vs-dark',
  inherit: true,
  rules: [],
  colors: { 'editor.background': '#14161a' },
});
// Themes are global in Monaco: set before the first editor exists, its first frame is dark.
monaco.editor.setTheme(EDITOR_THEME);

/** The Monaco language a domain's observation is written in. */
export function languageOf(domain: Domain, text: string): string {
  if (domain === 'mcp' && /^\s*[{[]/.test(text)) return 'json';
  if (domain === 'android' && /^\s*</.test(text)) return 'xml';
  return 'plaintext';
}

export const EDITOR_OPTIONS = {
  theme: EDITOR_THEME,
  minimap: { enabled: false },
  wordWrap: 'on',
  scrollBeyondLastLine: false,
  fontSize: 12,
  lineNumbersMinChars: 3,
  automaticLayout: true,
  renderWhitespace: 'boundary',
  unicodeHighlight: { ambiguousCharacters: false },
} as const;
