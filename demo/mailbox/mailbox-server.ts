import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

// The demo's mailbox (issue 33; not part of the service): the mail server `npm start` points the service at, and a page
// that shows what it received, as a developer's mail catcher (MailHog, Mailpit) does. A shopper who leaves an address
// in the demo reads the agent's reply there, and opens its link. Nothing leaves the machine: every message is kept in
// memory (the last 100) and shown, whoever it is addressed to.

export interface DemoMail {
  id: number;
  to: string[];
  from: string;
  subject: string;
  text: string;
  receivedAt: Date;
}

export interface RunningMailbox {
  /** For the service's `email.smtpUrlEnv`. */
  smtpUrl: string;
  /** The page that lists the messages. */
  url: string;
  mails: DemoMail[];
  close(): Promise<void>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The text with its web links clickable; everything else escaped. */
const linked = (text: string) =>
  escapeHtml(text).replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);

function page(mails: readonly DemoMail[]): string {
  const items = [...mails]
    .reverse()
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To ${escapeHtml(m.to.join(', '))} · from ${escapeHtml(m.from)} · ${m.receivedAt.toLocaleString('en-GB')}</p>
  <pre>${linked(m.text)}</pre>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo mailbox</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; background: #f6f8fa; color: #1f2328; }
  header { padding: 16px 24px; background: #fff; border-bottom: 1px solid #d0d7de; }
  h1 { font-size: 20px; margin: 0; }
  main { max-width: 760px; margin: 0 auto; padding: 16px 24px; }
  article { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 16px 20px; margin-bottom: 16px; }
  h2 { font-size: 17px; margin: 0 0 4px; }
  .meta { color: #59636e; font-size: 13px; margin: 0 0 12px; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; font: inherit; margin: 0; }
  a { color: #0969da; }
</style>
</head>
<body>
<header><h1>Demo mailbox</h1><p class="meta">Every email the demo's service sent (newest first). Nothing leaves this machine. Reload for new ones.</p></header>
<main>
${items || '<p>No email yet. Ask for a person on <code>?widget=demo-after-hours</code>, leave an address, and answer from the console.</p>'}
</main>
</body>
</html>`;
}

export async function startMailbox({ host = '127.0.0.1', port = 0 } = {}): Promise<RunningMailbox> {
  const mails: DemoMail[] = [];
  let next = 1;
  const smtp = new SMTPServer({
    // A mail catcher on this machine: no TLS, no password.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, session, callback) {
      void simpleParser(stream).then(
        (parsed) => {
          mails.push({
            id: next++,
            to: session.envelope.rcptTo.map((r) => r.address),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            receivedAt: new Date(),
          });
          if (mails.length > 100) mails.shift();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(0, host, () => resolve());
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const web = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url !== '/' && req.url !== '/mails.json')) {
      res.writeHead(404).end();
      return;
    }
    if (req.url === '/mails.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(mails));
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
    res.end(page(mails));
  });
  await new Promise<void>((resolve) => web.listen(port, host, () => resolve()));
  const webPort = (web.address() as AddressInfo).port;
  return {
    smtpUrl: `smtp://${host}:${smtpPort}`,
    url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${webPort}`,
    mails,
    close: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => web.close(() => resolve()));
    },
  };
}
