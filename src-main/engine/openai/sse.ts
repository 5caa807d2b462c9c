// Reads a server-sent event stream (the `stream: true` answer of /v1/chat/completions)
// and yields each event's data. The SSE rules (line endings \n, \r\n or \r, lines split
// across network chunks, multi-line data, `:` keep-alive comments) are eventsource-parser's;
// this file only turns a byte stream into its events and frees the connection when done.
import { createParser } from 'eventsource-parser';

export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const events: string[] = [];
  // Other fields (event, id, retry) do not matter to a completion stream.
  const parser = createParser({ onEvent: (event) => events.push(event.data) });
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        // A server that closes without the final blank line still meant its last event:
        // end the pending line and the pending event (extra blank lines dispatch nothing).
        parser.feed(`${decoder.decode()}\n\n`);
        finished = true;
      } else {
        parser.feed(decoder.decode(value, { stream: true }));
      }
      for (const data of events.splice(0)) yield data;
      if (done) break;
    }
  } finally {
    // Stopped early (the caller saw [DONE], or gave up): close the stream so the connection is freed.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
