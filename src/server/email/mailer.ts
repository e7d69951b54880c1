import nodemailer from 'nodemailer';

// Issue 33: email through Nodemailer (the library Node's field uses for SMTP), from the service config's `email`:
// the SMTP server's URL read from the environment at start, and the sender. The one place that talks to the server.

export interface MailMessage {
  /** One address, already checked (contact-address.ts). */
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (`X-Service-Conversation`), values of one line. */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Resolves once the server accepted the message; rejects with the server's or the connection's error. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * A mailer over SMTP. Nodemailer encodes every header it writes (a subject or a name with a line break cannot add a
 * header), and file and URL access is off: nothing a message holds makes the service read a file or fetch a URL.
 *
 * @example
 * const mailer = smtpMailer(process.env.SMTP_URL!, 'Shop <help@shop.example>');
 * await mailer.send({ to: 'ann@example.com', subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' });
 */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport({
    url,
    disableFileAccess: true,
    disableUrlAccess: true,
    // A mail server that does not answer must not hold a worker for minutes: the message is tried again later.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}
