import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

// Test support (issue 33; not part of the service): a real SMTP server on 127.0.0.1, as the mail server the service
// talks to in production. It takes mail for anyone with the username and password of its URL, keeps each message (the
// envelope, the raw bytes, and the message as mailparser reads it), and can be stopped and started again on the same
// port, to test a mail server that is down.

export interface ReceivedMail {
  /** The envelope's recipients (what the server was asked to deliver to, whatever the headers say). */
  to: string[];
  from: string;
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpTestServer {
  /** `smtp://user:pass@127.0.0.1:port`, for the config's `smtpUrlEnv`. */
  url: string;
  mails: ReceivedMail[];
  /** Resolves once `count` messages have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** The server goes away (connections are refused) until `start()`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const USER = 'service';
const PASS = 'smtp-test-password';

export async function startSmtpTestServer(): Promise<SmtpTestServer> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let port = 0;
  let server: SMTPServer | null = null;

  const listen = async () => {
    const s = new SMTPServer({
      // No TLS on a loopback test server (Nodemailer would try STARTTLS and refuse the self-signed certificate).
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === USER && auth.password === PASS) callback(null, { user: USER });
        else callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          void simpleParser(raw).then(
            (parsed) => {
              mails.push({
                to: session.envelope.rcptTo.map((r) => r.address),
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                raw,
                parsed,
              });
              for (const wake of waiters) wake();
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.server.address() as AddressInfo).port;
        resolve();
      });
    });
    server = s;
  };
  const stop = async () => {
    const s = server;
    server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  await listen();
  return {
    url: `smtp://${USER}:${PASS}@127.0.0.1:${port}`,
    mails,
    waitFor(count, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (mails.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(mails.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`waited ${timeoutMs} ms for ${count} emails; ${mails.length} came`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    stop,
    start: listen,
    close: stop,
  };
}
