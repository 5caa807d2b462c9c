// The Evaluation panel's file picker in a browser: the page cannot name a folder on the machine
// running Worldloom, so the chosen <domain>_test.jsonl files are sent there in chunks (as a
// dropped import is: never one message, never read whole) and evaluated from the folder the
// core makes of them.
import { UPLOAD_CHUNK_BYTES } from '../../../src-main/common/contract/workspace';
import { call } from '../api/client';
import { changeEvaluationForm } from './evaluation';
import { notify } from './workspace-actions';

/** A slice of a file as base64, read without decoding the bytes as text. */
function base64Slice(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(blob);
  });
}

/** Sends the chosen benchmark files and puts the folder they land in into the Data folder field. */
export async function sendBenchmarkFiles(files: readonly File[]): Promise<boolean> {
  const uploadIds: string[] = [];
  try {
    for (const file of files) {
      const { uploadId } = await call('import.begin', { name: file.name, format: 'auto', size: file.size });
      uploadIds.push(uploadId);
      for (let offset = 0; offset < file.size; offset += UPLOAD_CHUNK_BYTES) {
        await call('import.chunk', { uploadId, offset, data: await base64Slice(file.slice(offset, offset + UPLOAD_CHUNK_BYTES)) });
      }
    }
    const { dataDir } = await call('import.benchmarkFolder', { uploadIds });
    changeEvaluationForm({ dataDir });
    return true;
  } catch (err) {
    for (const uploadId of uploadIds) await call('import.abort', { uploadId }).catch(() => undefined);
    notify('error', 'Could not use those benchmark files', [(err as Error).message]);
    return false;
  }
}
