// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyServiceSignature } from '../../../client/verify-service-signature';
import type { EventDelivery, ServiceEvent } from '../../../protocol/event-hooks';
import {
  ADMIN_KEY,
  AGENTS,
  agent,
  type ServiceBackend,
  serviceBackends,
  shopper,
  startHandoff,
} from '../../testing/handoff-test-kit';
import { type SmtpTestServer, startSmtpTestServer } from '../../testing/smtp-test-server';
import { OPEN_TIMEOUT } from '../../testing/test-backends';
import { type RecordedRequest, type RecordingServer, startRecordingServer } from '../../testing/test-servers';

// Issue 33: conversation events for the merchant's systems, over real HTTP to a real local endpoint that checks the
// signature as an integrator does (service-widget/client's verifyServiceSignature). The worker's pace is shortened (it
// looks every 100 ms; a failed attempt is tried again after 1 s, not 30); everything else is the service as it runs.

const SECRET_ENV = 'EVENT_HOOK_TEST_SECRET';
const SECRET = 'whsec_event_hook_test_secret_0123';
const FLAKY_SECRET_ENV = 'EVENT_HOOK_TEST_FLAKY_SECRET';
const SMTP_ENV = 'EVENT_HOOK_TEST_SMTP_URL';

describe.each(serviceBackends)('event hooks, on $name', (backend: ServiceBackend) => {
  let hook: RecordingServer;
  let flaky: RecordingServer;
  let smtp: SmtpTestServer;
  let kit: Awaited<ReturnType<typeof startHandoff>>;
  let flakyAnswers: number[] = [];
  beforeAll(async () => {
    process.env[SECRET_ENV] = SECRET;
    process.env[FLAKY_SECRET_ENV] = 'whsec_flaky_hook_secret_0123456';
    hook = await startRecordingServer('http');
    hook.respond = (_req, res) => res.writeHead(204).end();
    flaky = await startRecordingServer('http');
    flaky.respond = (_req, res) => res.writeHead(flakyAnswers.shift() ?? 200).end();
    smtp = await startSmtpTestServer();
    process.env[SMTP_ENV] = smtp.url;
    kit = await startHandoff(backend, {
      config: (raw) => ({
        ...raw,
        email: { smtpUrlEnv: SMTP_ENV, from: 'Shop <help@shop.example>' },
        widgets: (raw.widgets as Record<string, unknown>[]).map((w) =>
          w.id === 'shop'
            ? {
                ...w,
                eventHooks: [
                  {
                    url: `${hook.url}/events`,
                    secretEnv: SECRET_ENV,
                    types: [
                      'conversation.created',
                      'handoff.requested',
                      'agent.replied',
                      'contact.left',
                      'conversation.rated',
                    ],
                  },
                  { url: `${flaky.url}/events`, secretEnv: FLAKY_SECRET_ENV, types: ['agent.replied'] },
                ],
              }
            : w,
        ),
      }),
      start: { events: { pollMs: 100, firstRetrySeconds: 1 }, email: { pollMs: 100, replyDelaySeconds: 60 } },
    });
  }, OPEN_TIMEOUT);
  afterAll(async () => {
    await kit?.close();
    await Promise.all([hook?.close(), flaky?.close(), smtp?.close()]);
  });

  const eventsOf = (server: RecordingServer, conversationId: string) =>
    server.requests
      .map((r) => ({ request: r, event: JSON.parse(r.body) as ServiceEvent }))
      .filter((e) => e.event.conversationId === conversationId);
  const until = async (check: () => boolean, timeoutMs = 10_000) => {
    const end = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const signed = (r: RecordedRequest, secret: string) =>
    verifyServiceSignature({ secret, method: r.method, url: r.target, headers: r.headers, body: r.body });
  const deliveries = async (query = '', key = ADMIN_KEY) =>
    agent(kit.base, key).get(`/widgets/shop/event-deliveries${query}`);

  it('posts each event, signed with the hook secret, with its id in x-service-event-id', async () => {
    const s = await shopper(kit.base);
    await s.say('hello');
    await s.handoff();
    expect(
      (
        await fetch(`${kit.base}/v0/widget/shop/conversations/${s.id}/contact`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'ann@example.com' }),
        })
      ).status,
    ).toBe(204);
    await agent(kit.base, AGENTS.anna.key).take(s.id);
    const posted = await agent(kit.base, AGENTS.anna.key).post(s.id, { text: 'Hello from Anna' });
    await agent(kit.base, AGENTS.anna.key).release(s.id);
    // Handed back, the shopper rates the help Anna gave.
    const rated = await fetch(`${kit.base}/v0/widget/shop/conversations/${s.id}/rating`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ score: 4, comment: ' Quick and kind ' }),
    });
    expect(rated.status).toBe(204);
    await until(() => eventsOf(hook, s.id).length === 5);

    const got = eventsOf(hook, s.id);
    expect(got.map((e) => e.event.type)).toEqual([
      'conversation.created',
      'handoff.requested',
      'contact.left',
      'agent.replied',
      'conversation.rated',
    ]);
    for (const { request, event } of got) {
      expect(request.method).toBe('POST');
      expect(request.pathname).toBe('/events');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-service-event-id']).toBe(event.id);
      expect(request.headers['x-service-event-type']).toBe(event.type);
      expect(signed(request, SECRET)).toBe(true);
      expect(signed(request, 'another-secret-entirely')).toBe(false);
      expect(event).toMatchObject({ widgetId: 'shop', conversationId: s.id, createdAt: expect.any(String) });
    }
    expect(got[0].event.data).toEqual({ locale: null, user: null });
    expect(got[1].event.data).toEqual({ opensAt: null });
    expect(got[2].event.data).toEqual({ email: 'ann@example.com' });
    expect(got[3].event.data).toEqual({
      messageId: (posted.body as { message: { id: string } }).message.id,
      agent: { id: 'anna', name: 'Anna' },
      text: 'Hello from Anna',
    });
    expect(got[4].event.data).toEqual({
      score: 4,
      comment: 'Quick and kind',
      agent: { id: 'anna', name: 'Anna' },
    });
    // Another widget's conversations are not this widget's hooks' business.
    await shopper(kit.base, 'other');
    await new Promise((r) => setTimeout(r, 500));
    expect(hook.requests.every((r) => (JSON.parse(r.body) as ServiceEvent).widgetId === 'shop')).toBe(true);
  });

  it('tells of a person asked for in words too, once', async () => {
    const s = await shopper(kit.base);
    await s.say('I want to talk to a person please');
    await s.say('Can someone help me please?');
    await until(() => eventsOf(hook, s.id).length === 2);
    await new Promise((r) => setTimeout(r, 500));
    expect(eventsOf(hook, s.id).map((e) => e.event.type)).toEqual([
      'conversation.created',
      'handoff.requested',
    ]);
  });

  it('tries an unanswered event again with the same id, without holding back the other hook', async () => {
    flakyAnswers = [500, 503];
    const s = await shopper(kit.base);
    await s.handoff();
    await agent(kit.base, AGENTS.anna.key).take(s.id);
    await agent(kit.base, AGENTS.anna.key).post(s.id, { text: 'Are you there?' });
    // The healthy hook has it at once.
    await until(() => eventsOf(hook, s.id).some((e) => e.event.type === 'agent.replied'), 3000);
    expect(eventsOf(flaky, s.id).length).toBeLessThan(3);
    // The flaky one: 500, 503 (1 s later), then 200 (2 s later): three attempts of one event.
    await until(() => eventsOf(flaky, s.id).length === 3, 10_000);
    const attempts = eventsOf(flaky, s.id);
    expect(new Set(attempts.map((a) => a.request.headers['x-service-event-id'])).size).toBe(1);
    expect(new Set(attempts.map((a) => a.request.body)).size).toBe(1);
    // The console's list says so: three attempts, delivered, the last answer a 200.
    let flakyRow: EventDelivery | undefined;
    const end = Date.now() + 5000;
    do {
      const listed = (await deliveries(`?conversationId=${s.id}`)).body as { deliveries: EventDelivery[] };
      flakyRow = listed.deliveries.find((d) => d.url.startsWith(flaky.url));
    } while (flakyRow?.status !== 'delivered' && Date.now() < end);
    expect(flakyRow).toMatchObject({
      type: 'agent.replied',
      attempts: 3,
      status: 'delivered',
      lastStatus: 200,
    });
  });

  it('lists deliveries for admins, sends one again on request, and keeps them from agents', async () => {
    const s = await shopper(kit.base);
    await until(() => eventsOf(hook, s.id).length === 1);
    const listed = (await deliveries(`?conversationId=${s.id}`)).body as { deliveries: EventDelivery[] };
    expect(listed.deliveries).toEqual([
      expect.objectContaining({
        type: 'conversation.created',
        status: 'delivered',
        attempts: 1,
        lastStatus: 204,
        lastError: null,
        nextAttemptAt: null,
        url: `${hook.url}/events`,
      }),
    ]);
    const id = listed.deliveries[0].id;
    const again = await fetch(`${kit.base}/v0/admin/widgets/shop/event-deliveries/${id}/send-again`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(again.status).toBe(204);
    await until(() => eventsOf(hook, s.id).length === 2);
    const [first, second] = eventsOf(hook, s.id);
    expect(second.request.headers['x-service-event-id']).toBe(first.request.headers['x-service-event-id']);

    // An agent is not an admin; a wrong id, another widget's id, bad filters: clear errors.
    expect((await deliveries('', AGENTS.anna.key)).status).toBe(403);
    const other = await fetch(`${kit.base}/v0/admin/widgets/other/event-deliveries/${id}/send-again`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(other.status).toBe(404);
    expect((await deliveries('?status=lost')).status).toBe(400);
    expect((await deliveries('?limit=1000')).status).toBe(400);
    expect((await deliveries('?conversationId=not-an-id')).status).toBe(400);
  });

  it('erases a conversation with its deliveries', async () => {
    const s = await shopper(kit.base);
    await until(() => eventsOf(hook, s.id).length === 1);
    const erased = await fetch(`${kit.base}/v0/admin/widgets/shop/conversations/${s.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(erased.status).toBe(204);
    const listed = (await deliveries(`?conversationId=${s.id}`)).body as { deliveries: EventDelivery[] };
    expect(listed.deliveries).toEqual([]);
  });
});
