// MCP recorder cassettes and agent-vcr files: imported (./import.ts), not exported.
import type { FormatEntry } from '../format';
import { mcpCassetteImporter } from './import';

export const mcpCassetteFormat: FormatEntry = { id: 'mcp-cassette', label: 'MCP recorder cassette', extensions: ['json', 'vcr'], importer: mcpCassetteImporter };
