// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_KEY,
  AGENTS,
  agent,
  agentWith,
  type ServiceBackend,
  serviceBackends,
  shopper,
  startHandoff,
} from '../../testing/handoff-test-kit';
import { type SmtpTestServer, startSmtpTestServer } from '../../testing/smtp-test-server';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 33 item 2, "when a person is asked for and none is available": inside business hours (here the widgets have
// none, so always) but with nobody's console open, the shopper is not promised an answer "shortly". The promise says
// nobody is free right now, and with email the widget offers to leave an address. A console says it is open with
// `PUT /v0/admin/me/presence { status }` (the console does every 30 s) and closed with `DELETE`; an agent who is away
// counts as nobody. On PostgreSQL, with two instances, the console talks to one and the shopper to the other.

const SMTP_ENV = 'NOBODY_ONLINE_SMTP_URL';
const SHORTLY = /They'll answer here shortly/;
const NOBODY = /No one is free right now/;

describe.each(serviceBackends)(
  'a person asked for while nobody is at the console, on $name',
  (backend: ServiceBackend) => {
    let smtp: SmtpTestServer;
    let kit: Awaited<ReturnType<typeof startHandoff>>;
    /** Where the console talks: the other instance than the shopper's, when there are two. */
    let consoleBase: string;
    beforeAll(async () => {
      smtp = await startSmtpTestServer();
      process.env[SMTP_ENV] = smtp.url;
      kit = await startHandoff(backend, {
        instances: backend.name === 'postgres' ? 2 : 1,
        config: (raw) => ({ ...raw, email: { smtpUrlEnv: SMTP_ENV, from: 'Shop <help@shop.example>' } }),
      });
      consoleBase = kit.services.urls.at(-1) as string;
    }, OPEN_TIMEOUT);
    afterAll(async () => {
      await kit?.close();
      await smtp?.close();
    });

    const anna = () => agent(consoleBase, AGENTS.anna.key);
    const ben = () => agent(consoleBase, AGENTS.ben.key);
    const promiseOf = (body: unknown) =>
      ((body as { message?: { parts: { text?: string }[] } }).message?.parts[0]?.text ?? '') as string;

    it('nobody online: "no one is free" and the address offered; Anna opens the console: "shortly", no offer; she closes it: nobody again', async () => {
      const first = await (await shopper(kit.base)).handoff();
      expect(first.body).toMatchObject({ mode: 'waiting', offerContact: true });
      expect(promiseOf(first.body)).toMatch(NOBODY);

      const said = await anna().presence(true);
      expect(said.status).toBe(200);
      expect(said.body).toEqual({ status: 'online', beatSeconds: 30 });
      const second = await (await shopper(kit.base)).handoff();
      expect(second.body).toMatchObject({ mode: 'waiting', offerContact: false });
      expect(promiseOf(second.body)).toMatch(SHORTLY);

      // Away: the console is open, but nobody is there to answer shortly.
      expect((await anna().presence('away')).body).toEqual({ status: 'away', beatSeconds: 30 });
      const away = await (await shopper(kit.base)).handoff();
      expect(promiseOf(away.body)).toMatch(NOBODY);

      expect((await anna().presence(false)).status).toBe(204);
      const third = await (await shopper(kit.base)).handoff();
      expect(third.body).toMatchObject({ offerContact: true });
      expect(promiseOf(third.body)).toMatch(NOBODY);
    });

    it('asked for in words, the reply says the same, and its mode event offers the address', async () => {
      const s = await shopper(kit.base);
      const asked = await s.say('I want to talk to a person please');
      const mode = asked.events.find((e) => e.event === 'conversation.mode');
      expect(mode?.data).toMatchObject({ mode: 'waiting', offerContact: true });
      const text = asked.events
        .filter((e) => e.event === 'message.delta')
        .map((e) => (e.data as { text?: string }).text ?? '')
        .join('');
      expect(text).toMatch(NOBODY);

      await ben().presence(true);
      const later = await (await shopper(kit.base)).say('I want to talk to a person please');
      const laterMode = later.events.find((e) => e.event === 'conversation.mode');
      expect(laterMode?.data).toMatchObject({ mode: 'waiting' });
      expect((laterMode?.data as { offerContact?: boolean } | undefined)?.offerContact).toBeUndefined();
      await ben().presence(false);
    });

    it('lists who has the console open, by name, to every key; each key speaks for itself only', async () => {
      await ben().presence(true);
      await anna().presence(true);
      const listed = await agent(kit.base, ADMIN_KEY).get('/presence');
      expect(listed.status).toBe(200);
      expect(
        (listed.body as { agents: { name: string; status: string }[] }).agents.map((a) => [a.name, a.status]),
      ).toEqual([
        ['Anna', 'online'],
        ['Ben', 'online'],
      ]);
      // Anna's DELETE takes back her own presence, never Ben's, whatever the request says.
      const res = await fetch(`${consoleBase}/v0/admin/me/presence`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${AGENTS.anna.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ agentId: 'ben' }),
      });
      expect(res.status).toBe(204);
      const after = await ben().get('/presence');
      expect((after.body as { agents: { id: string }[] }).agents.map((a) => a.id)).toEqual(['ben']);
      await ben().presence(false);
    });

    it('attack: presence without a key, with a forged key, or with a shopper’s conversation token is 401 and counts nobody', async () => {
      const s = await shopper(kit.base);
      for (const authorization of ['', 'Bearer not-a-key-of-this-service', `Bearer ${s.token}`]) {
        const said = await agentWith(kit.base, authorization).presence(true);
        expect(said.status).toBe(401);
        expect(said.error).toBe('unauthorized');
      }
      const asked = await s.handoff();
      expect(asked.body).toMatchObject({ offerContact: true });
    });

    it.each([
      ['a status the API does not know', { status: 'busy' }],
      ['no status', {}],
      ['another agent named in the body', { status: 'online', agentId: 'ben' }],
      ['a status as a number', { status: 1 }],
      ['a NUL in the status', { status: 'online\u0000' }],
    ])('attack: presence with %s is 400 and changes nobody', async (_what, body) => {
      const res = await fetch(`${consoleBase}/v0/admin/me/presence`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${AGENTS.ben.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect(((await ben().get('/presence')).body as { agents: unknown[] }).agents).toEqual([]);
    });
  },
);
