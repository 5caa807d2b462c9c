// AgentWorldBench JSONL: read (./import.ts), written as one file (./export.ts) or as a dataset
// folder of world-model paths with a card (./dataset-export.ts).
import type { FormatEntry } from '../format';
import { agentWorldBenchFormat } from './dataset-export';
import { agentWorldBenchExporter } from './export';
import { agentWorldBenchImporter } from './import';

/** Reads AgentWorldBench lines; exports the whole workspace to one `.jsonl` file, or a dataset folder with a card. */
export const agentWorldBenchFormatEntry: FormatEntry = {
  id: 'agentworldbench',
  label: 'AgentWorldBench JSONL',
  extensions: ['jsonl'],
  importer: agentWorldBenchImporter,
  fileWriter: agentWorldBenchExporter,
  datasetWriter: agentWorldBenchFormat,
};
