// OpenTelemetry GenAI traces: imported (./import.ts), not exported.
import type { FormatEntry } from '../format';
import { otelGenAiImporter } from './import';

export const otelGenAiFormat: FormatEntry = { id: 'otel-genai', label: 'OpenTelemetry GenAI traces (OTLP JSON)', extensions: ['json', 'jsonl'], importer: otelGenAiImporter };
