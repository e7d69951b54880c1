// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createLogger, type LogLevel, parseLogLevel, redactSecrets, withRequestId } from './logger';

const recording = (level?: LogLevel) => {
  const lines: string[] = [];
  return { lines, logger: createLogger({ level, write: (line) => lines.push(line) }) };
};

describe('createLogger()', () => {
  it('writes one JSON object per line with an ISO time, the level by name and the message', () => {
    const { lines, logger } = recording();
    logger.info('service listening', { url: 'http://127.0.0.1:8787' });
    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith('\n')).toBe(true);
    const line = JSON.parse(lines[0]);
    expect(line).toMatchObject({ level: 'info', msg: 'service listening', url: 'http://127.0.0.1:8787' });
    expect(new Date(line.time).toISOString()).toBe(line.time);
  });

  it('leaves out lines below its level, and writes nothing when silent', () => {
    const warn = recording('warn');
    warn.logger.info('not shown');
    warn.logger.debug('not shown');
    warn.logger.error('shown');
    expect(warn.lines.map((l) => JSON.parse(l).msg)).toEqual(['shown']);
    const silent = recording('silent');
    silent.logger.error('not shown');
    expect(silent.lines).toEqual([]);
  });

  it('works with its methods passed around unbound', () => {
    const { lines, logger } = recording();
    const { warn } = logger;
    warn('unbound', { n: 1 });
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'warn', msg: 'unbound', n: 1 });
  });

  it('redacts credential fields, whatever their case, at the top level and two levels down', () => {
    const { lines, logger } = recording();
    logger.info('fields', {
      token: 'tok-1',
      identityToken: 'tok-2',
      apiKey: 'tok-3',
      secret: 'tok-4',
      request: { headers: { authorization: 'Bearer tok-5', cookie: 'sid=tok-6', 'set-cookie': 'tok-7' } },
      widget: { signingSecret: 'tok-8', key: 'tok-9', Authorization: 'tok-10' },
      conversationId: 'kept',
    });
    expect(lines[0]).not.toMatch(/tok-\d/);
    expect(JSON.parse(lines[0])).toMatchObject({ token: '[redacted]', conversationId: 'kept' });
  });

  it('redacts every credential header whatever its name or case: the push API-Key, X-Api-Key, an agent or admin key header', () => {
    const { lines, logger } = recording('debug');
    logger.debug('request received', {
      headers: {
        'api-key': 'tok-1',
        'API-Key': 'tok-2',
        'X-API-KEY': 'tok-3',
        'x-agent-key': 'tok-4',
        'x-admin-key': 'tok-5',
        'x-task-api-key': 'tok-6',
        'x-auth-token': 'tok-7',
        'proxy-authorization': 'tok-8',
        'x-service-signature': 'tok-9',
        'x-csrf-token': 'tok-10',
        accept: 'text/event-stream',
        'x-request-id': 'kept-id',
      },
      previewToken: 'tok-11',
      metricsSecret: 'tok-12',
      tokens: 42,
    });
    expect(lines[0]).not.toMatch(/tok-\d/);
    const line = JSON.parse(lines[0]);
    expect(line.headers).toMatchObject({
      'api-key': '[redacted]',
      'API-Key': '[redacted]',
      accept: 'text/event-stream',
      'x-request-id': 'kept-id',
    });
    // A count is not a credential: only names that end in a credential word are redacted.
    expect(line.tokens).toBe(42);
  });

  it('redacts JWTs, preview tokens, task keys, bearer values and URL passwords inside strings', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLXBhcnQ';
    const { lines, logger } = recording();
    logger.error('call failed', {
      error: `Bearer abc.def rejected for ${jwt}`,
      url: 'https://svc.test/preview/pv_AbC-123_xyz/v0/widget/demo/config',
      nested: {
        detail: [
          'nsk_0123456789abcdefXYZ',
          'postgres://app:hunter2-pw@db:5432/service',
          'basic dXNlcjpwYXNz',
        ],
      },
      plain: 'GET /v0/widget/demo/config 200',
    });
    for (const secret of [
      jwt,
      'abc.def',
      'pv_AbC-123_xyz',
      'nsk_0123456789abcdefXYZ',
      'hunter2-pw',
      'dXNlcjpwYXNz',
    ])
      expect(lines[0]).not.toContain(secret);
    const line = JSON.parse(lines[0]);
    expect(line.url).toBe('https://svc.test/preview/pv_[redacted]/v0/widget/demo/config');
    // A string with nothing credential-shaped (nearly every one) comes out as it went in.
    expect(line.plain).toBe('GET /v0/widget/demo/config 200');
  });

  it('adds the request id to every line logged inside withRequestId(), and in what it starts', async () => {
    const { lines, logger } = recording();
    let later: Promise<void> = Promise.resolve();
    withRequestId('req-1', () => {
      logger.info('inside');
      later = new Promise<void>((done) => setTimeout(done, 5)).then(() => logger.info('started inside'));
    });
    logger.info('outside');
    await later;
    const byMsg = Object.fromEntries(lines.map((l) => JSON.parse(l)).map((l) => [l.msg, l.reqId]));
    expect(byMsg).toEqual({ inside: 'req-1', 'started inside': 'req-1', outside: undefined });
  });

  it('carries only the request id into a line, never the fields an earlier line of the same request logged', () => {
    const { lines, logger } = recording('debug');
    withRequestId('req-2', () => {
      logger.debug('request received', { headers: { accept: 'text/html' }, first: 1 });
      logger.info('request', { status: 200 });
      logger.info('third');
    });
    logger.info('outside');
    const [first, second, third, outside] = lines.map((l) => JSON.parse(l));
    expect(first).toMatchObject({ reqId: 'req-2', first: 1 });
    expect(second).toMatchObject({ reqId: 'req-2', status: 200 });
    expect(second).not.toHaveProperty('headers');
    expect(second).not.toHaveProperty('first');
    expect(third).not.toHaveProperty('status');
    expect(Object.keys(third).sort()).toEqual([...Object.keys(outside), 'reqId'].sort());
  });
});

describe('parseLogLevel()', () => {
  it('takes each pino level, defaults an unset or empty value, and names a wrong one', () => {
    for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
      expect(parseLogLevel(level)).toEqual({ ok: true, value: level });
    expect(parseLogLevel(undefined)).toEqual({ ok: true, value: 'info' });
    expect(parseLogLevel('', 'warn')).toEqual({ ok: true, value: 'warn' });
    expect(parseLogLevel('verbose')).toEqual({
      ok: false,
      error: 'LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "verbose"',
    });
    expect(parseLogLevel('INFO').ok).toBe(false);
  });
});

describe('redactSecrets()', () => {
  it('leaves text without credentials as it was', () => {
    const text = 'GET /v0/widget/demo/conversations/7f3c 200 (order 1002, see https://shop.test/a?b=c)';
    expect(redactSecrets(text)).toBe(text);
  });
});
