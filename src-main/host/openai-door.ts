// `worldloom serve --openai`: starts the OpenAI-compatible API beside the host, and with
// `--record-to` records every request into a workspace (the open one, whose studio then shows
// the new paths at once, or another file).
import { resolve } from 'node:path';
import type { Studio } from '../service/studio';
import { WorkspaceStore } from '../store/workspace-store';
import { startOpenAiApi, type RunningOpenAiApi } from './openai-api';
import { RequestRecorder } from './request-recorder';

export interface OpenAiFlags {
  openai?: boolean;
  openaiPort?: number;
  openaiKey?: string;
  recordTo?: string;
}

export async function startOpenAiDoor(studio: Studio, flags: OpenAiFlags, print: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<RunningOpenAiApi> {
  let recorder: RequestRecorder | null = null;
  let ownStore: WorkspaceStore | null = null;
  if (flags.recordTo) {
    const path = resolve(flags.recordTo);
    if (studio.workspace && resolve(studio.workspace.info().path) === path) {
      recorder = new RequestRecorder(studio.workspace, (nodes, trajectories) => {
        studio.announceTrajectoriesAdded('recorded', trajectories);
        studio.announceNodesAdded('agent', nodes);
      });
    } else {
      ownStore = WorkspaceStore.openOrCreate(path);
      recorder = new RequestRecorder(ownStore);
    }
  }
  const api = await startOpenAiApi({
    studio,
    port: flags.openaiPort,
    key: flags.openaiKey ?? process.env.WORLDLOOM_OPENAI_KEY,
    onCompleted: recorder ? (chat) => recorder.record(chat) : undefined,
  });
  print(`OpenAI-compatible API at ${api.baseUrl} (key: ${api.key})${flags.recordTo ? `, recording requests into ${resolve(flags.recordTo)}` : ''}`);
  return {
    ...api,
    close: async () => {
      await api.close();
      ownStore?.close();
    },
  };
}
