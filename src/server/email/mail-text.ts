import type { MailedMessage } from './mail-outbox';

// Issue 33: what the emails say, in the conversation's language (English or German, as the assistant answers). Plain
// text and a small HTML version of the same words; every piece of a message or a name is escaped in the HTML, so a
// shopper's or an agent's text can only ever be text there.

export type MailLanguage = 'en' | 'de';

export interface MailText {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const paragraphs = (s: string) =>
  s
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 12px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');

/** A subject is one line: whatever a name holds, no line break reaches the header (Nodemailer encodes the rest). */
const oneLine = (s: string) => s.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();

export const mailLanguageOf = (locale: string | null): MailLanguage =>
  locale?.toLowerCase().startsWith('de') ? 'de' : 'en';

const WORDS = {
  en: {
    replySubject: (store: string) => `A reply to your question at ${store}`,
    replied: (who: string) => `${who} replied:`,
    someone: 'Our team',
    open: 'Continue the conversation',
    openText: 'Continue the conversation:',
    noLink: (store: string) => `Open the chat on ${store} to answer.`,
    why: (store: string) =>
      `You get this email because you left your address in the chat on ${store}. Links in it open this conversation for 7 days.`,
    transcriptSubject: (store: string) => `Your conversation with ${store}`,
    transcriptIntro: (store: string) => `Here is your conversation with ${store}, as you asked.`,
    you: 'You',
    assistant: 'Assistant',
  },
  de: {
    replySubject: (store: string) => `Antwort auf Ihre Frage bei ${store}`,
    replied: (who: string) => `${who} hat geantwortet:`,
    someone: 'Unser Team',
    open: 'Gespräch fortsetzen',
    openText: 'Gespräch fortsetzen:',
    noLink: (store: string) => `Öffnen Sie den Chat auf ${store}, um zu antworten.`,
    why: (store: string) =>
      `Sie erhalten diese E-Mail, weil Sie im Chat auf ${store} Ihre Adresse hinterlassen haben. Die Links darin öffnen dieses Gespräch 7 Tage lang.`,
    transcriptSubject: (store: string) => `Ihr Gespräch mit ${store}`,
    transcriptIntro: (store: string) => `Hier ist Ihr Gespräch mit ${store}, wie gewünscht.`,
    you: 'Sie',
    assistant: 'Assistent',
  },
} as const;

const page = (body: string) =>
  `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#1b1f24;max-width:560px">${body}</body></html>`;

/**
 * An agent's reply (one or several messages of a burst) for a shopper who left.
 *
 * @example
 * replyMail({ store: 'shop.example', language: 'en', messages, link: 'https://shop.example/?service_resume=…' })
 * // → { subject: 'A reply to your question at shop.example', text: 'Anna replied:\n\n…', html: '…' }
 */
export function replyMail({
  store,
  language,
  messages,
  link,
}: {
  store: string;
  language: MailLanguage;
  messages: MailedMessage[];
  link: string | null;
}): MailText {
  const w = WORDS[language];
  const authors = [...new Set(messages.map((m) => m.author).filter((a): a is string => !!a))];
  const who = oneLine(authors.join(', ')) || w.someone;
  const body = messages.map((m) => m.text.trim()).join('\n\n');
  const text = [
    w.replied(who),
    '',
    body,
    '',
    link ? `${w.openText} ${link}` : w.noLink(store),
    '',
    '--',
    w.why(store),
    '',
  ].join('\n');
  const html = page(
    `<p style="margin:0 0 12px">${escapeHtml(w.replied(who))}</p>` +
      `<div style="border-left:3px solid #d0d7de;padding-left:12px;margin:0 0 16px">${paragraphs(body)}</div>` +
      (link
        ? `<p style="margin:0 0 24px"><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#1f6feb;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(w.open)}</a></p>`
        : `<p>${escapeHtml(w.noLink(store))}</p>`) +
      `<p style="color:#57606a;font-size:13px">${escapeHtml(w.why(store))}</p>`,
  );
  return { subject: oneLine(w.replySubject(store)), text, html };
}

/** The whole conversation, for the shopper who asked for it. */
export function transcriptMail({
  store,
  language,
  messages,
  link,
  timeZone,
}: {
  store: string;
  language: MailLanguage;
  messages: MailedMessage[];
  link: string | null;
  timeZone: string;
}): MailText {
  const w = WORDS[language];
  const when = new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
    timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  const nameOf = (m: MailedMessage) =>
    m.role === 'user' ? w.you : m.role === 'agent' ? oneLine(m.author ?? w.someone) : w.assistant;
  const text = [
    w.transcriptIntro(store),
    '',
    ...messages.flatMap((m) => [`${nameOf(m)} (${when.format(m.createdAt)}):`, m.text.trim(), '']),
    ...(link ? [`${w.openText} ${link}`, ''] : []),
  ].join('\n');
  const html = page(
    `<p>${escapeHtml(w.transcriptIntro(store))}</p>` +
      messages
        .map(
          (m) =>
            `<p style="margin:16px 0 4px;color:#57606a;font-size:13px"><strong>${escapeHtml(nameOf(m))}</strong> · ${escapeHtml(when.format(m.createdAt))}</p>${paragraphs(m.text.trim())}`,
        )
        .join('') +
      (link ? `<p style="margin-top:24px"><a href="${escapeHtml(link)}">${escapeHtml(w.open)}</a></p>` : ''),
  );
  return { subject: oneLine(w.transcriptSubject(store)), text, html };
}
