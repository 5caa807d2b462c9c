// Which view shows a domain's state. One file per kind of view; a new domain adds one line
// here. Views are loaded on first use, so xterm.js costs nothing until a terminal shows.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Domain } from '../../../../src-main/common/trajectory/model';

export interface StateViewProps {
  text: string;
  /** The terminal width the recording had, when the import kept it. */
  columns?: number;
}

export interface DomainView {
  /** What the rendered view is called on its tab ("Terminal", "Outline"). */
  label: string;
  View: LazyExoticComponent<ComponentType<StateViewProps>>;
}

const terminal = lazy(() => import('./TerminalView'));
const json = lazy(() => import('./JsonView'));
const search = lazy(() => import('./SearchResultsView'));
const outline = lazy(() => import('./OutlineView'));
const patch = lazy(() => import('./PatchView'));

export const DOMAIN_VIEWS: Record<Domain, DomainView> = {
  terminal: { label: 'Terminal', View: terminal },
  mcp: { label: 'JSON', View: json },
  search: { label: 'Results', View: search },
  web: { label: 'Outline', View: outline },
  android: { label: 'Outline', View: outline },
  os: { label: 'Outline', View: outline },
  swe: { label: 'Diff', View: patch },
};
