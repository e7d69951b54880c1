// Test support: a local HTTP service speaking the widget's handoff protocol (src/protocol/chat.ts, DESIGN "Human
// handoff"), for the widget's handoff tests while the reference service's side is built on another branch; e2e/
// handoff-widget.e2e.ts runs the same widget against the real service. Its log is what the test writes into it: a
// test plays the service's and the agents' part (a mode change, an agent's message) with `append`, and each open
// `GET …/events` stream sends what is appended after its Last-Event-ID, live, until `endStreams()`. Not part of the
// bundle (nothing but tests imports it).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  ChatMessage,
  ConversationMode,
  HandoffResponse,
  HistoryResponse,
  StreamEvent,
} from '../../protocol';

export interface Recorded {
  method: string;
  path: string;
  body: unknown;
}

export interface HandoffTestService {
  url: string;
  requests: Recorded[];
  /** The conversation's mode as the service has it. */
  mode: ConversationMode;
  agent: string | undefined;
  /** The stored messages, as `GET …/messages` lists them. */
  messages: ChatMessage[];
  /** Appends to the log (and wakes every open events stream); a `conversation.mode` sets `mode` too. */
  append(event: StreamEvent): number;
  /** Stores a message written outside a turn (an agent's, `role: 'agent'` with `author`) and logs it whole. */
  write(message: Omit<ChatMessage, 'id' | 'createdAt'>): string;
  /** Ends every open events stream, as the service does at its deadline or after a hand-back. */
  endStreams(): void;
  /** Drops every connection mid-stream (the network). */
  cut(): void;
  /** A fresh service: no log, no messages, `assistant` mode, every status as by default. */
  clear(): void;
  /** How many events streams are open. */
  openStreams(): number;
  /** `POST …/handoff` answers this status (409: no one to hand to). */
  handoffStatus: number;
  /** `POST …/feedback` answers this status. */
  feedbackStatus: number;
  /** `POST …/signals` (issue 35) answers this status. */
  signalsStatus: number;
  /** Each `POST …/signals` as it came: its bearer token (the `authorization` header) and its body. */
  signals: { authorization: string | undefined; body: unknown }[];
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-service-reply-id',
};

const readBody = async (request: IncomingMessage): Promise<unknown> => {
  let text = '';
  for await (const chunk of request) text += chunk;
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
};

const sse = (seq: number, { type, ...data }: StreamEvent): string =>
  `event: ${type}\nid: ${seq}\ndata: ${JSON.stringify(data)}\n\n`;

export async function startHandoffTestService(): Promise<HandoffTestService> {
  const log: { seq: number; event: StreamEvent }[] = [];
  const streams = new Set<{ response: ServerResponse; after: number }>();
  const sockets = new Set<import('node:net').Socket>();
  let seq = 0;
  let ids = 0;

  const send = (stream: { response: ServerResponse; after: number }): void => {
    for (const entry of log) {
      if (entry.seq <= stream.after) continue;
      stream.response.write(sse(entry.seq, entry.event));
      stream.after = entry.seq;
    }
  };

  const service: HandoffTestService = {
    url: '',
    requests: [],
    mode: 'assistant',
    agent: undefined,
    messages: [],
    handoffStatus: 200,
    feedbackStatus: 204,
    signalsStatus: 204,
    signals: [],
    append(event) {
      seq++;
      log.push({ seq, event });
      if (event.type === 'conversation.mode') {
        service.mode = event.mode;
        service.agent = event.agent?.name;
      }
      for (const stream of streams) send(stream);
      return seq;
    },
    write(message) {
      const id = `m${++ids}`;
      store({ ...message, id, createdAt: new Date().toISOString() });
      return id;
    },
    endStreams() {
      for (const stream of streams) stream.response.end();
      streams.clear();
    },
    cut() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      streams.clear();
    },
    openStreams: () => streams.size,
    clear() {
      service.cut();
      log.length = 0;
      seq = 0;
      service.requests.length = 0;
      service.messages.length = 0;
      service.mode = 'assistant';
      service.agent = undefined;
      service.handoffStatus = 200;
      service.feedbackStatus = 204;
      service.signalsStatus = 204;
      service.signals.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        service.cut();
        server.close(() => resolve());
      }),
  };

  /** A message the service stores and writes to its log whole: one delta with its id, then its done. */
  const store = (message: ChatMessage): void => {
    service.messages.push(message);
    const { id: messageId, role, author } = message;
    const text = message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    const agent = role === 'agent' ? { role, author } : {};
    service.append({ type: 'message.delta', messageId, text, ...agent } as StreamEvent);
    service.append({ type: 'message.done', messageId, ...agent } as StreamEvent);
  };

  const json = (response: ServerResponse, status: number, body?: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json', ...CORS });
    response.end(body === undefined ? undefined : JSON.stringify(body));
  };

  const server = createServer(async (request, response) => {
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        ...CORS,
        'access-control-allow-methods': 'GET, POST, PUT',
        'access-control-allow-headers': 'authorization, content-type',
      });
      response.end();
      return;
    }
    const url = new URL(request.url ?? '/', 'http://x');
    const body = await readBody(request);
    service.requests.push({ method: request.method ?? '', path: url.pathname + url.search, body });
    const path = url.pathname.replace(/^\/v0\/widget\/[^/]+\/conversations/, '');
    const method = request.method;
    if (method === 'POST' && path === '') return json(response, 201, { conversationId: 'c1', token: 'tok' });
    if (method === 'PUT' && path.endsWith('/context')) return json(response, 204);
    if (method === 'GET' && path === '/c1/messages') {
      const history: HistoryResponse = {
        messages: service.messages,
        lastSeq: seq,
        mode: service.mode,
        agent: service.agent ? { name: service.agent } : null,
      };
      return json(response, 200, history);
    }
    if (method === 'POST' && path === '/c1/handoff') {
      if (service.handoffStatus !== 200)
        return json(response, service.handoffStatus, {
          error: { code: 'handoff_unavailable', message: 'No one to hand to.' },
        });
      if (service.mode !== 'assistant') {
        const same: HandoffResponse = { mode: service.mode, message: null };
        return json(response, 200, same);
      }
      service.append({ type: 'conversation.mode', mode: 'waiting' });
      const message: ChatMessage = {
        id: `m${++ids}`,
        role: 'assistant',
        parts: [{ type: 'text', text: 'Someone from our team will answer here shortly.' }],
        createdAt: new Date().toISOString(),
      };
      store(message);
      const answer: HandoffResponse = { mode: 'waiting', agent: null, message };
      return json(response, 200, answer);
    }
    if (method === 'POST' && path === '/c1/messages') {
      const { clientMessageId, text } = body as { clientMessageId: string; text: string };
      const user: ChatMessage = {
        id: `m${++ids}`,
        role: 'user',
        parts: [{ type: 'text', text }],
        createdAt: new Date().toISOString(),
        clientMessageId,
      };
      service.messages.push(user);
      service.append({ type: 'message.user', messageId: user.id, text });
      if (service.mode !== 'assistant') {
        return json(response, 202, {
          messageId: user.id,
          mode: service.mode,
          agent: service.agent ? { name: service.agent } : null,
        });
      }
      // The assistant's reply, streamed: `Echo: <text>`.
      const replyId = `m${++ids}`;
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'x-service-reply-id': replyId,
        ...CORS,
      });
      const reply = `Echo: ${text}`;
      service.messages.push({
        id: replyId,
        role: 'assistant',
        parts: [{ type: 'text', text: reply }],
        createdAt: new Date().toISOString(),
      });
      // Asked in words: the reply's own stream says the mode changed before its end (DESIGN "Human handoff").
      if (/human|person/i.test(text)) {
        const at = service.append({ type: 'conversation.mode', mode: 'waiting' });
        response.write(sse(at, { type: 'conversation.mode', mode: 'waiting' }));
      }
      const delta = service.append({ type: 'message.delta', text: reply });
      response.write(sse(delta, { type: 'message.delta', text: reply }));
      const done = service.append({ type: 'message.done', messageId: replyId });
      response.end(sse(done, { type: 'message.done', messageId: replyId }));
      return;
    }
    if (method === 'GET' && path === '/c1/events') {
      response.writeHead(200, { 'content-type': 'text/event-stream', ...CORS });
      response.flushHeaders();
      const stream = { response, after: Number(url.searchParams.get('lastEventId') ?? 0) };
      streams.add(stream);
      response.on('close', () => streams.delete(stream));
      send(stream);
      return;
    }
    const feedback = /^\/c1\/messages\/([^/]+)\/feedback$/.exec(path);
    if (method === 'POST' && feedback) return json(response, service.feedbackStatus);
    if (method === 'POST' && path === '/c1/signals') {
      service.signals.push({ authorization: request.headers.authorization, body });
      return json(response, service.signalsStatus);
    }
    json(response, 404, { error: { code: 'not_found', message: path } });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return service;
}
