import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

// A real local server that speaks the chat-completions streaming protocol, for the openai engine's tests
// (CONVENTIONS: "prefer a real local server to a mocked fetch"). Each test scripts a queue of answers and reads back
// every request as it reached the wire. Not part of the service.

export interface StreamResponse {
  kind: 'stream';
  /** Raw body pieces, written one by one (use the `sse*` helpers, or any hostile bytes). */
  chunks: Array<string | Uint8Array>;
  /** Pause before each chunk after the first. */
  delayMs?: number;
  /** After the last chunk: end the response (default), keep it open forever, or destroy the socket. */
  after?: 'end' | 'hang' | 'destroy';
  status?: number;
  contentType?: string;
}

export type ScriptedResponse =
  | StreamResponse
  | {
      kind: 'error';
      status: number;
      body?: string;
      contentType?: string;
      /** Extra response headers (`retry-after`, `retry-after-ms`, `location`, ...). */
      headers?: Record<string, string>;
    }
  /** Reads the request and never answers, not even the headers. */
  | { kind: 'stall' };

export interface RecordedCompletionRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The parsed JSON body; `null` if it was not JSON. */
  body: CompletionRequestBody | null;
  /** The client went away before the answer was complete. */
  clientAborted: boolean;
  /** When the whole request had arrived (`Date.now()`), to measure the wait between retries. */
  receivedAt: number;
}

/** The request fields the tests look at. */
export interface CompletionRequestBody {
  model: string;
  stream: boolean;
  messages: Array<{
    role: string;
    content: string | null;
    tool_call_id?: string;
    tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  }>;
  tools?: Array<{
    type: string;
    function: { name: string; description: string; parameters: Record<string, unknown> };
  }>;
}

export interface FakeOpenAiServer {
  /** `http://127.0.0.1:<port>/v1` (`https:` with `tls`), the `baseUrl` to give the engine. */
  baseUrl: string;
  port: number;
  requests: RecordedCompletionRequest[];
  /** The parsed body of request `index`; throws when there is none or it was not JSON. */
  body(index: number): CompletionRequestBody;
  /** Queues the next answers, in order. With the queue empty the server answers 500. */
  enqueue(...responses: ScriptedResponse[]): void;
  /** Resolves when the connection of request `index` closes (to see an abort reach the wire). */
  closed(index: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * @param options.tls Serve HTTPS with this key and certificate (to test the SSRF-guarded transport); default HTTP.
 */
export async function startFakeOpenAiServer(
  options: { tls?: { key: string; cert: string } } = {},
): Promise<FakeOpenAiServer> {
  const queue: ScriptedResponse[] = [];
  const requests: RecordedCompletionRequest[] = [];
  const closings: Promise<void>[] = [];

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: CompletionRequestBody | null = null;
      try {
        body = JSON.parse(rawBody) as CompletionRequestBody;
      } catch {}
      const recorded: RecordedCompletionRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody,
        body,
        clientAborted: false,
        receivedAt: Date.now(),
      };
      requests.push(recorded);
      closings.push(
        new Promise<void>((resolve) =>
          res.on('close', () => {
            if (!res.writableFinished) recorded.clientAborted = true;
            resolve();
          }),
        ),
      );
      void answer(queue.shift() ?? { kind: 'error', status: 500, body: '{"error":"nothing scripted"}' }, res);
    });
  };
  const listener = options.tls
    ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, onRequest)
    : http.createServer(onRequest);

  const answer = async (scripted: ScriptedResponse, res: http.ServerResponse) => {
    if (scripted.kind === 'stall') return;
    if (scripted.kind === 'error') {
      res.writeHead(scripted.status, {
        'content-type': scripted.contentType ?? 'application/json',
        ...scripted.headers,
      });
      res.end(scripted.body ?? '');
      return;
    }
    res.writeHead(scripted.status ?? 200, {
      'content-type': scripted.contentType ?? 'text/event-stream',
      'cache-control': 'no-cache',
    });
    res.flushHeaders();
    for (const [i, chunk] of scripted.chunks.entries()) {
      if (i > 0 && scripted.delayMs) await new Promise((r) => setTimeout(r, scripted.delayMs));
      if (res.destroyed) return;
      await new Promise<void>((resolve) => res.write(chunk, () => resolve()));
    }
    if ((scripted.after ?? 'end') === 'end') res.end();
    // A moment for the written bytes to reach the client before the connection breaks mid-body.
    else if (scripted.after === 'destroy') setTimeout(() => res.destroy(), 20);
  };

  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;
  return {
    baseUrl: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/v1`,
    port,
    requests,
    body: (index) => {
      const body = requests[index]?.body;
      if (!body) throw new Error(`request ${index} was not received or had no JSON body`);
      return body;
    },
    enqueue: (...responses) => {
      queue.push(...responses);
    },
    closed: (index) => closings[index] ?? Promise.reject(new Error(`no request ${index}`)),
    close: () =>
      new Promise<void>((resolve) => {
        listener.closeAllConnections();
        listener.close(() => resolve());
      }),
  };
}

/** One `data:` event of a chunk object. */
export function sse(chunk: unknown): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

export const SSE_DONE = 'data: [DONE]\n\n';

/** A `chat.completion.chunk` with one choice. */
export function sseChunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return sse({
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'test-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
}

/** A whole streamed text answer: role chunk, one chunk per piece, stop, [DONE]. */
export function textAnswer(...pieces: string[]): StreamResponse {
  return {
    kind: 'stream',
    chunks: [
      sseChunk({ role: 'assistant', content: '' }),
      ...pieces.map((content) => sseChunk({ content })),
      sseChunk({}, 'stop'),
      SSE_DONE,
    ],
  };
}

/** A streamed answer that calls tools, each call's arguments in the given pieces. */
export function toolCallAnswer(
  calls: Array<{ id: string; name: string; argumentPieces: string[] }>,
  text = '',
): StreamResponse {
  const chunks: string[] = [sseChunk({ role: 'assistant', content: text || null })];
  calls.forEach((call, index) => {
    chunks.push(
      sseChunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    for (const piece of call.argumentPieces) {
      chunks.push(sseChunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(sseChunk({}, 'tool_calls'), SSE_DONE);
  return { kind: 'stream', chunks };
}
