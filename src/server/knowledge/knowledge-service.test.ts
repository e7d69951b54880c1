// @vitest-environment node
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig, type WidgetSettings } from '../config/service-config';
import { createLogger, silentLogger } from '../platform/logger';
import {
  closedPort,
  type RecordingServer,
  startRecordingServer,
  testCertificate,
} from '../testing/test-servers';
import { KNOWLEDGE_DOCUMENT_MAX_BYTES } from './knowledge-document';
import { type KnowledgeService, startKnowledge } from './knowledge-service';

// `knowledgeUrls` fetched over real HTTP from a local server standing in for the store's web server.

const HELP = `Our help pages.

# Shipping

We ship within 2 working days with DHL.

# Returns

Send it back within 30 days.

## Versand

Wir versenden innerhalb von 2 Werktagen mit DHL.
`;

function widget(fields: Record<string, unknown>): WidgetSettings {
  const config = parseConfig({
    adminKey: 'admin-key-123456',
    widgets: [{ id: 'shop', allowedOrigins: ['https://shop.example'], ...fields }],
  });
  if (!config.ok) throw new Error(config.error);
  return config.value.widgets[0];
}

/** The log lines the service wrote, parsed. */
function recordingLogger() {
  const lines: Array<{ level: string; msg: string } & Record<string, unknown>> = [];
  return { lines, logger: createLogger({ write: (line) => lines.push(JSON.parse(line)) }) };
}

const markdown =
  (text: string, type = 'text/markdown; charset=utf-8'): RecordingServer['respond'] =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': type });
    res.end(text);
  };

let server: RecordingServer;
let knowledge: KnowledgeService | undefined;
beforeEach(async () => {
  server = await startRecordingServer('http');
});
afterEach(async () => {
  await knowledge?.stop();
  knowledge = undefined;
  await server.close();
});

const start = (w: WidgetSettings, logger = silentLogger, options: { refreshMs?: number } = {}) => {
  knowledge = startKnowledge([w], { allowHttpLoopback: true, ...options }, logger);
  return knowledge;
};

describe('startKnowledge(): knowledgeUrls', () => {
  it('fetches a markdown document at start and ranks its sections, each naming the document as its source', async () => {
    server.respond = markdown(HELP);
    const url = `${server.url}/help/faq.md`;
    const k = start(widget({ knowledgeUrls: [url] }));
    const report = await k.refreshNow('shop');
    expect(server.requests[0]).toMatchObject({ method: 'GET', pathname: '/help/faq.md' });
    expect(server.requests[0].headers.accept).toContain('text/markdown');
    expect(report?.documents).toEqual([
      { url, ok: true, fetchedAt: expect.any(String), sections: 4, dropped: 0 },
    ]);
    expect((await k.search('shop', 'how long does shipping take'))[0]).toMatchObject({
      title: 'Shipping',
      text: 'We ship within 2 working days with DHL.',
      source: url,
    });
    expect((await k.search('shop', 'Wie lange dauert der Versand?'))[0].title).toBe('Versand');
    // The text before the first heading is titled after the file.
    expect((await k.search('shop', 'help pages'))[0].title).toBe('faq');
  });

  it('ranks the config’s sections with the documents’, the config’s first on a tie', async () => {
    server.respond = markdown('# Klarna\nPay later with Klarna.');
    const k = start(
      widget({
        knowledge: [{ title: 'Klarna', text: 'Pay later with Klarna.' }],
        knowledgeUrls: [`${server.url}/k.md`],
      }),
    );
    // The configured sections answer before any fetch lands.
    expect((await k.search('shop', 'klarna')).map((h) => h.source)).toEqual([null]);
    await k.refreshNow('shop');
    expect((await k.search('shop', 'klarna')).map((h) => h.source)).toEqual([null, `${server.url}/k.md`]);
  });

  it('takes text/plain and text/x-markdown, and refuses HTML, JSON and a document without a content type', async () => {
    const url = `${server.url}/help`;
    const { lines, logger } = recordingLogger();
    const k = start(widget({ knowledgeUrls: [url] }), logger);
    const cases: Array<[string | null, string | null]> = [
      ['text/plain', null],
      ['text/x-markdown; charset=UTF-8', null],
      [
        'text/html; charset=utf-8',
        'the document is text/html, not markdown or plain text (text/markdown or text/plain)',
      ],
      [
        'application/json',
        'the document is application/json, not markdown or plain text (text/markdown or text/plain)',
      ],
      [null, 'the document has no content type (serve it as text/markdown or text/plain)'],
    ];
    for (const [type, error] of cases) {
      server.respond = (_req, res) => {
        res.writeHead(200, type ? { 'content-type': type } : {});
        res.end(`# Shipping ${type}\nWithin 2 days.`);
      };
      const report = await k.refreshNow('shop');
      expect(report?.documents[0].error, String(type)).toBe(error ?? undefined);
    }
    expect(
      lines.filter((l) => l.msg === 'knowledge document could not be fetched').map((l) => l.error),
    ).toEqual(cases.flatMap(([, error]) => (error ? [error] : [])));
  });

  it('refuses a document in another charset than UTF-8 (its umlauts would reach the shopper as nonsense)', async () => {
    server.respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/markdown; charset=iso-8859-1' });
      res.end(Buffer.from('# Rückgabe\n30 Tage.', 'latin1'));
    };
    const k = start(widget({ knowledgeUrls: [`${server.url}/de.md`] }));
    const report = await k.refreshNow('shop');
    expect(report?.documents[0]).toMatchObject({
      ok: false,
      error: "the document's charset is iso-8859-1; serve it as UTF-8",
      sections: 0,
    });
  });

  it('refuses a document over the byte cap whole, and keeps the last good copy', async () => {
    const url = `${server.url}/help.md`;
    const { lines, logger } = recordingLogger();
    const k = start(widget({ knowledgeUrls: [url] }), logger);
    server.respond = markdown(HELP);
    await k.refreshNow('shop');
    const firstFetch = k.lastReport('shop')?.documents[0].fetchedAt;
    // A document that grew past 4 MiB: the refresh fails, the copy that worked stays in use.
    server.respond = markdown(`# Shipping\n${'x'.repeat(KNOWLEDGE_DOCUMENT_MAX_BYTES + 1)}`);
    const report = await k.refreshNow('shop');
    expect(report?.documents[0]).toEqual({
      url,
      ok: false,
      error: `the document is larger than ${KNOWLEDGE_DOCUMENT_MAX_BYTES} bytes`,
      fetchedAt: firstFetch,
      sections: 4,
      dropped: 0,
    });
    expect((await k.search('shop', 'shipping'))[0].text).toBe('We ship within 2 working days with DHL.');
    expect(lines.find((l) => l.msg === 'knowledge document could not be fetched')).toMatchObject({
      level: 'warn',
      url,
      kept: 'the last good copy',
    });
  });

  it('keeps the last good copy when the server answers 500, and takes the new one when it works again', async () => {
    const url = `${server.url}/help.md`;
    const k = start(widget({ knowledgeUrls: [url] }));
    server.respond = markdown(HELP);
    await k.refreshNow('shop');
    server.respond = (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('oops');
    };
    expect((await k.refreshNow('shop'))?.documents[0]).toMatchObject({
      ok: false,
      error: 'the document answered HTTP 500',
      sections: 4,
    });
    expect((await k.search('shop', 'returns'))[0].title).toBe('Returns');
    server.respond = markdown('# Returns\nWithin 60 days now.');
    expect((await k.refreshNow('shop'))?.documents[0]).toMatchObject({ ok: true, sections: 1 });
    expect((await k.search('shop', 'returns'))[0].text).toBe('Within 60 days now.');
    expect(await k.search('shop', 'shipping')).toEqual([]);
  });

  it('works once a server that was down at start comes up', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/help.md`;
    const { lines, logger } = recordingLogger();
    const k = start(widget({ knowledgeUrls: [url] }), logger);
    const down = await k.refreshNow('shop');
    expect(down?.documents[0]).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^network: /),
      sections: 0,
    });
    expect(down?.documents[0].fetchedAt).toBeUndefined();
    expect(lines.find((l) => l.msg === 'knowledge document could not be fetched')).toMatchObject({
      kept: 'nothing (none fetched yet)',
    });
    expect(await k.search('shop', 'shipping')).toEqual([]);
    const late = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/markdown' });
      res.end(HELP);
    });
    await new Promise<void>((resolve) => late.listen(port, '127.0.0.1', resolve));
    try {
      expect((await k.refreshNow('shop'))?.documents[0]).toMatchObject({ ok: true, sections: 4 });
      expect((await k.search('shop', 'shipping'))[0].title).toBe('Shipping');
    } finally {
      late.closeAllConnections();
      await new Promise<void>((resolve) => late.close(() => resolve()));
    }
  });

  it('keeps 500 sections in all: a document of 600 loses its last ones, with a warning naming it', async () => {
    const big = Array.from({ length: 600 }, (_, i) => `## Topic ${i}\nAbout thing${i}.`).join('\n');
    const small = '# Late\nNever reached.';
    server.respond = (req, res) => markdown(req.pathname === '/big.md' ? big : small)(req, res);
    const { lines, logger } = recordingLogger();
    const configured = Array.from({ length: 10 }, (_, i) => ({
      title: `Configured ${i}`,
      text: `Own ${i}.`,
    }));
    const k = start(
      widget({ knowledge: configured, knowledgeUrls: [`${server.url}/big.md`, `${server.url}/small.md`] }),
      logger,
    );
    const report = await k.refreshNow('shop');
    expect(report?.sections).toBe(500);
    expect(report?.documents.map(({ url, sections, dropped }) => ({ url, sections, dropped }))).toEqual([
      { url: `${server.url}/big.md`, sections: 490, dropped: 110 },
      { url: `${server.url}/small.md`, sections: 0, dropped: 1 },
    ]);
    const warnings = lines.filter((l) => l.msg.startsWith('knowledge document over the section limit'));
    expect(warnings.map((w) => [w.url, w.dropped])).toEqual([
      [`${server.url}/big.md`, 110],
      [`${server.url}/small.md`, 1],
    ]);
    expect((await k.search('shop', 'thing489'))[0].title).toBe('Topic 489');
    expect(await k.search('shop', 'thing490')).toEqual([]);
    expect((await k.search('shop', 'configured'))[0].source).toBeNull();
  });

  it('clips a fetched section longer than 20,000 characters', async () => {
    server.respond = markdown(`# Terms\n${'All terms apply. '.repeat(2000)}`);
    const k = start(widget({ knowledgeUrls: [`${server.url}/terms.md`] }));
    await k.refreshNow('shop');
    const [hit] = await k.search('shop', 'terms');
    expect(hit.text.length).toBeLessThanOrEqual(20_000);
    expect(hit.text.endsWith('…')).toBe(true);
  });

  it('refuses loopback and plain http without allowHttpLoopback (SSRF: a knowledge URL aimed at the service’s own network)', async () => {
    const secure = await startRecordingServer('https');
    try {
      secure.respond = markdown(HELP);
      server.respond = markdown(HELP);
      knowledge = startKnowledge(
        [widget({ knowledgeUrls: [`${secure.url}/help.md`, `${server.url}/help.md`] })],
        { allowHttpLoopback: false, ca: (await testCertificate()).cert },
        silentLogger,
      );
      const report = await knowledge.refreshNow('shop');
      expect(report?.documents.map((d) => d.error?.split(':')[0])).toEqual([
        'address_not_allowed',
        'scheme_not_allowed',
      ]);
      expect(secure.requests).toHaveLength(0);
      expect(server.requests).toHaveLength(0);
      expect(await knowledge.search('shop', 'shipping')).toEqual([]);
    } finally {
      await secure.close();
    }
  });

  it('fetches again on its refresh interval', async () => {
    server.respond = markdown('# Shipping\nWithin 2 days.');
    const k = start(widget({ knowledgeUrls: [`${server.url}/help.md`] }), silentLogger, {
      refreshMs: 50,
    });
    await k.refreshNow('shop');
    server.respond = markdown('# Shipping\nWithin 1 day.');
    await expect
      .poll(async () => (await k.search('shop', 'shipping'))[0]?.text, { timeout: 5000 })
      .toBe('Within 1 day.');
  });

  it('stops at once, even with a fetch waiting on a server that never answers', async () => {
    server.respond = () => {};
    const k = start(widget({ knowledgeUrls: [`${server.url}/hang.md`] }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await k.stop();
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('has nothing to refresh for a widget without knowledgeUrls, and no answers for an unknown widget', async () => {
    const k = start(widget({ knowledge: [{ title: 'Shipping', text: 'Within 2 days.' }] }));
    expect(await k.refreshNow('shop')).toBeNull();
    expect((await k.search('shop', 'shipping'))[0].title).toBe('Shipping');
    expect(await k.search('other', 'shipping')).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});
