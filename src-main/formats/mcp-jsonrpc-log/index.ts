// MCP JSON-RPC message logs: imported (./import.ts), not exported.
import type { FormatEntry } from '../format';
import { mcpJsonRpcLogImporter } from './import';

export const mcpJsonRpcLogFormat: FormatEntry = { id: 'mcp-jsonrpc-log', label: 'MCP JSON-RPC log', extensions: ['jsonl', 'log'], importer: mcpJsonRpcLogImporter };
