// POST for long-running streamed answers. fetch() in Node gives up when a server sends no
// headers, or no next chunk, for 5 minutes (undici's headersTimeout and bodyTimeout); a
// busy vLLM or SGLang server queues a request and sends its first chunk only after the
// prefill, which on a long history and a full batch can take longer than that. node:http
// has no such timeouts, so a request here waits as long as the server needs, and only the
// caller's signal (the user's cancel) ends it.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

export interface StreamingAnswer {
  status: number;
  ok: boolean;
  header(name: string): string | null;
  /** The answer's body as it arrives. Read it, or call text(), exactly once. */
  body: ReadableStream<Uint8Array>;
  text(): Promise<string>;
}

export function postStreaming(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<StreamingAnswer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(target, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, signal }, (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      // Made on first use: the body is read either as a web stream or by text(), never both.
      let stream: ReadableStream<Uint8Array> | undefined;
      resolve({
        status,
        ok: status >= 200 && status < 300,
        header: (name) => {
          const value = res.headers[name.toLowerCase()];
          return Array.isArray(value) ? value.join(', ') : (value ?? null);
        },
        get body() {
          return (stream ??= Readable.toWeb(res) as ReadableStream<Uint8Array>);
        },
        text: async () => {
          const chunks: Buffer[] = [];
          for await (const chunk of res) chunks.push(chunk as Buffer);
          return Buffer.concat(chunks).toString('utf8');
        },
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
