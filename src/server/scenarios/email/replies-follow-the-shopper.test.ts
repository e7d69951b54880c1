// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

// Issue 33 end to end over real HTTP, with a real SMTP server: a shopper asks for a person when nobody is at work,
// leaves an address, and goes; the agent's replies reach them by email, one email a burst, with a link that reopens
// the conversation on another device. The worker's pace is shortened (a burst waits 1 s, not 60; a failed send is
// tried again after 1 s, not 30); everything else is the service as it runs.

const SMTP_ENV = 'EMAIL_TEST_SMTP_URL';
const STORE = 'https://shop.example/';

const json = (body: unknown, token?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
  body: JSON.stringify(body),
});

describe.each(serviceBackends)('replies follow the shopper by email, on $name', (backend: ServiceBackend) => {
  let smtp: SmtpTestServer;
  let kit: Awaited<ReturnType<typeof startHandoff>>;
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    process.env[SMTP_ENV] = smtp.url;
    kit = await startHandoff(backend, {
      config: (raw) => ({
        ...raw,
        email: { smtpUrlEnv: SMTP_ENV, from: 'Shop Example <help@shop.example>' },
        widgets: (raw.widgets as Record<string, unknown>[]).map((w) =>
          // `shop`: business hours without a single range, so nobody is ever at work; `other`: always open.
          w.id === 'shop'
            ? { ...w, storeUrl: STORE, businessHours: { timeZone: 'Europe/Berlin', hours: [] } }
            : w,
        ),
      }),
      start: { email: { pollMs: 100, replyDelaySeconds: 1, firstRetrySeconds: 1 } },
    });
  }, OPEN_TIMEOUT);
  afterAll(async () => {
    await kit?.close();
    await smtp?.close();
  });

  const widgetUrl = (widget: string, path: string) => `${kit.base}/v0/widget/${widget}/${path}`;
  const anna = () => agent(kit.base, AGENTS.anna.key);
  const mailsTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address));
  const waitForMailTo = async (address: string, count = 1, timeoutMs = 15_000) => {
    const until = Date.now() + timeoutMs;
    while (mailsTo(address).length < count) {
      if (Date.now() > until) throw new Error(`no email to ${address} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return mailsTo(address);
  };
  const leaveAddress = async (s: { id: string; token: string }, email: unknown, widget = 'shop') =>
    fetch(widgetUrl(widget, `conversations/${s.id}/contact`), json({ email }, s.token));

  /** A shopper who asked for a person, left `address` and is now with Anna. */
  const awaitingAnna = async (address: string) => {
    const s = await shopper(kit.base);
    await s.handoff();
    await leaveAddress(s, address);
    await anna().take(s.id);
    return s;
  };
  /** The shopper's open chat: its event stream as the widget holds it while the chat is open (`follow=1`). */
  const openChat = async (s: { id: string; token: string }) => {
    const open = new AbortController();
    const stream = await fetch(widgetUrl('shop', `conversations/${s.id}/events?follow=1`), {
      headers: { authorization: `Bearer ${s.token}` },
      signal: open.signal,
    });
    return {
      status: stream.status,
      close: async () => {
        open.abort();
        await stream.body?.cancel().catch(() => {});
      },
    };
  };

  it('offers to leave an address when nobody is at work, and not when someone is', async () => {
    // Anna has the console open (scenarios/handoff/nobody-online.test.ts: inside the hours, that is what "at work" is).
    await anna().presence(true);
    const night = await shopper(kit.base, 'shop');
    expect((await night.handoff()).body).toMatchObject({ mode: 'waiting', offerContact: true });
    const day = await shopper(kit.base, 'other');
    expect((await day.handoff()).body).toMatchObject({ mode: 'waiting', offerContact: false });
  });

  it('offers it too when the person is asked for in words: the mode event of the reply says so', async () => {
    await anna().presence(true);
    const night = await shopper(kit.base, 'shop');
    const asked = await night.say('I want to talk to a person please');
    const mode = asked.events.find((e) => e.event === 'conversation.mode');
    expect(mode?.data).toMatchObject({ mode: 'waiting', offerContact: true });
    const day = await shopper(kit.base, 'other');
    const dayMode = (await day.say('I want to talk to a person please')).events.find(
      (e) => e.event === 'conversation.mode',
    );
    expect(dayMode?.data).toMatchObject({ mode: 'waiting' });
    expect((dayMode?.data as { offerContact?: boolean } | undefined)?.offerContact).toBeUndefined();
  });

  it("emails an agent's burst of replies once, with a link that reopens the conversation on another device", async () => {
    const address = `Ann.${backend.name}@example.com`;
    const s = await shopper(kit.base);
    await s.say('Can I return a gift without the receipt?');
    await s.handoff();
    expect((await leaveAddress(s, ` Ann.${backend.name}@Example.COM `)).status).toBe(204);
    // The agents see where the reply will go.
    const taken = await anna().take(s.id);
    expect(taken.body).toMatchObject({ conversation: { contactEmail: address } });
    expect((await anna().post(s.id, { text: 'Yes, within 30 days.' })).status).toBe(201);
    expect((await anna().post(s.id, { text: 'Bring the gift and your order number.' })).status).toBe(201);

    const [mail] = await waitForMailTo(address);
    // One email for the burst, from the configured sender, carrying both messages.
    await new Promise((r) => setTimeout(r, 1500));
    expect(mailsTo(address)).toHaveLength(1);
    expect(mail.parsed.from?.text).toBe('"Shop Example" <help@shop.example>');
    expect(mail.parsed.subject).toBe('A reply to your question at Shop Example');
    expect(mail.parsed.text).toContain('Anna replied:');
    expect(mail.parsed.text).toContain('Yes, within 30 days.');
    expect(mail.parsed.text).toContain('Bring the gift and your order number.');
    expect(mail.parsed.headers.get('x-service-conversation')).toBe(s.id);

    // The link: the store's URL with a resume token.
    const link = /https:\/\/shop\.example\/\?service_resume=([\w.-]+)/.exec(mail.parsed.text ?? '');
    expect(link).not.toBeNull();
    expect(mail.parsed.html).toContain(`href="${link![0]}"`);
    // Another device exchanges it for a conversation token of its own, and reads the conversation with it.
    const resumed = await fetch(widgetUrl('shop', 'resume'), json({ token: link![1] }));
    expect(resumed.status).toBe(200);
    const opened = (await resumed.json()) as { conversationId: string; token: string };
    expect(opened.conversationId).toBe(s.id);
    expect(opened.token).not.toBe(s.token);
    const history = await fetch(widgetUrl('shop', `conversations/${s.id}/messages`), {
      headers: { authorization: `Bearer ${opened.token}` },
    });
    expect(history.status).toBe(200);
    const { messages } = (await history.json()) as { messages: { parts: { text?: string }[] }[] };
    expect(messages.map((m) => m.parts[0]?.text)).toContain('Yes, within 30 days.');
    // The first device's token still works.
    expect((await s.history()).messages.length).toBe(messages.length);
    // The token opens that conversation alone.
    const elsewhere = await shopper(kit.base);
    const other = await fetch(widgetUrl('shop', `conversations/${elsewhere.id}/messages`), {
      headers: { authorization: `Bearer ${opened.token}` },
    });
    expect(other.status).toBe(404);

    // A later reply is a new email with that reply alone.
    await anna().post(s.id, { text: 'Our store in Berlin takes returns too.' });
    const mails = await waitForMailTo(address, 2);
    expect(mails[1].parsed.text).toContain('Our store in Berlin takes returns too.');
    expect(mails[1].parsed.text).not.toContain('Yes, within 30 days.');
  });

  it('sends no email to a shopper who has the conversation open when it is due, nor later', async () => {
    const address = `present.${backend.name}@example.com`;
    const s = await awaitingAnna(address);
    // The open chat's stream, held open past the email's due time (1 s here), then closed.
    const chat = await openChat(s);
    expect(chat.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    await anna().post(s.id, { text: 'I am here.' });
    await new Promise((r) => setTimeout(r, 2500));
    await chat.close();
    await new Promise((r) => setTimeout(r, 2500));
    expect(mailsTo(address)).toEqual([]);
  });

  it('emails a shopper whose chat was still closing as the agent wrote', async () => {
    const address = `leaving.${backend.name}@example.com`;
    const s = await awaitingAnna(address);
    const chat = await openChat(s);
    await new Promise((r) => setTimeout(r, 300));
    // The agent writes while the stream is still open; the shopper leaves right after.
    await anna().post(s.id, { text: 'Written as you were leaving.' });
    await chat.close();
    const [mail] = await waitForMailTo(address);
    expect(mail.parsed.text).toContain('Written as you were leaving.');
  });

  it('keeps the email while the mail server is down and sends it when the server is back', async () => {
    const address = `patient.${backend.name}@example.com`;
    const s = await awaitingAnna(address);
    await smtp.stop();
    try {
      await anna().post(s.id, { text: 'Sent while the mail server was down.' });
      // Due after 1 s, tried, failed; tried again 1, 2 s later.
      await new Promise((r) => setTimeout(r, 2500));
      expect(mailsTo(address)).toEqual([]);
    } finally {
      await smtp.start();
    }
    const [mail] = await waitForMailTo(address, 1, 20_000);
    expect(mail.parsed.text).toContain('Sent while the mail server was down.');
  });

  it('emails the transcript to the address left, or to one given', async () => {
    const address = `transcript.${backend.name}@example.com`;
    const s = await shopper(kit.base);
    await s.say('Where is my order 1002?');
    await leaveAddress(s, address);
    const sent = await fetch(widgetUrl('shop', `conversations/${s.id}/transcript`), json({}, s.token));
    expect(sent.status).toBe(202);
    expect(await sent.json()).toEqual({ to: address });
    const [mail] = await waitForMailTo(address);
    expect(mail.parsed.subject).toBe('Your conversation with Shop Example');
    expect(mail.parsed.text).toContain('Where is my order 1002?');
    expect(mail.parsed.text).toContain('Order 1002: shipped.');
  });

  describe('attacks', () => {
    it('header injection in the address: refused, nothing stored, no email to the injected address', async () => {
      const s = await shopper(kit.base);
      for (const attack of [
        'ann@example.com\r\nBcc: evil@attacker.example',
        'ann@example.com\nBcc: evil@attacker.example',
        'ann@example.com, evil@attacker.example',
        'Ann <ann@example.com>',
      ]) {
        const res = await leaveAddress(s, attack);
        expect(res.status, attack).toBe(400);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_email');
      }
      const taken = await anna().take(s.id);
      expect(taken.body).toMatchObject({ conversation: { contactEmail: null } });
      expect(smtp.mails.flatMap((m) => m.to)).not.toContain('evil@attacker.example');
    });

    it("header injection in an agent's message stays in the body: one recipient, one-line subject", async () => {
      const address = `inject.${backend.name}@example.com`;
      const s = await shopper(kit.base);
      await s.handoff();
      await leaveAddress(s, address);
      await anna().take(s.id);
      await anna().post(s.id, {
        text: 'Hi\r\nBcc: evil@attacker.example\r\nSubject: pwned\r\n\r\n<script>x()</script>',
      });
      const [mail] = await waitForMailTo(address);
      expect(mail.to).toEqual([address]);
      expect(mail.parsed.bcc).toBeUndefined();
      expect(mail.parsed.subject).toBe('A reply to your question at Shop Example');
      // In the HTML the text is text.
      expect(mail.parsed.html).not.toContain('<script>');
      expect(mail.parsed.html).toContain('&#60;script&#62;');
    });

    it('an address that is not one, a body that is not JSON, no token, another conversation: clear errors', async () => {
      const s = await shopper(kit.base);
      expect((await leaveAddress(s, 'not an address')).status).toBe(400);
      expect((await leaveAddress(s, 42)).status).toBe(400);
      expect((await leaveAddress(s, `${'a'.repeat(300)}@example.com`)).status).toBe(400);
      const noToken = await fetch(
        widgetUrl('shop', `conversations/${s.id}/contact`),
        json({ email: 'a@b.example' }),
      );
      expect(noToken.status).toBe(401);
      const other = await shopper(kit.base);
      const wrong = await fetch(
        widgetUrl('shop', `conversations/${other.id}/contact`),
        json({ email: 'a@b.example' }, s.token),
      );
      expect(wrong.status).toBe(404);
    });

    it('a flood of contact and transcript requests is limited, with Retry-After', async () => {
      const s = await shopper(kit.base);
      for (let i = 0; i < 5; i++) expect((await leaveAddress(s, `flood${i}@example.com`)).status).toBe(204);
      const over = await leaveAddress(s, 'flood5@example.com');
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      const transcript = () =>
        fetch(widgetUrl('shop', `conversations/${s.id}/transcript`), json({}, s.token));
      for (let i = 0; i < 3; i++) expect((await transcript()).status).toBe(202);
      expect((await transcript()).status).toBe(429);
    });

    it('a resume token forged, changed, for another widget or replayed after erasure opens nothing', async () => {
      const address = `erased.${backend.name}@example.com`;
      const s = await shopper(kit.base);
      await s.handoff();
      await leaveAddress(s, address);
      await anna().take(s.id);
      await anna().post(s.id, { text: 'A reply to a conversation that will be erased.' });
      const [mail] = await waitForMailTo(address);
      const token = /service_resume=([\w.-]+)/.exec(mail.parsed.text ?? '')![1];
      const resume = async (t: string, widget = 'shop') => {
        const res = await fetch(widgetUrl(widget, 'resume'), json({ token: t }));
        return {
          status: res.status,
          body: (await res.json()) as { error?: { code: string; message: string } },
        };
      };
      // A changed signature, a changed payload, a token of our own making, one for another widget.
      const [head, payload, signature] = token.split('.');
      const flipped = signature[0] === 'A' ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
      const forged = Buffer.from(JSON.stringify({ cid: s.id, exp: 9_999_999_999 })).toString('base64url');
      for (const bad of [`${head}.${payload}.${flipped}`, `${head}.${forged}.${signature}`, 'not-a-token']) {
        const answer = await resume(bad);
        expect(answer.status).toBe(401);
        expect(answer.body.error?.code).toBe('resume_invalid');
      }
      expect((await resume(token, 'other')).status).toBe(401);
      // Good until the conversation is erased; then it says so.
      expect((await resume(token)).status).toBe(200);
      const erased = await fetch(`${kit.base}/v0/admin/widgets/shop/conversations/${s.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${ADMIN_KEY}` },
      });
      expect(erased.status).toBe(204);
      const replayed = await resume(token);
      expect(replayed.status).toBe(401);
      expect(replayed.body.error?.message).toMatch(/no longer exists/);
    });
  });
});
