import type { WidgetSettings } from '../config/service-config';
import type { Logger } from '../platform/logger';
import { retryInSeconds, startOutboxLoop } from '../platform/outbox-loop';
import type { ClaimedMail, MailOutbox } from './mail-outbox';
import { mailLanguageOf, replyMail, transcriptMail } from './mail-text';
import type { Mailer } from './mailer';
import type { ResumeTokens } from './resume-token';

// Issue 33: sends what the outbox holds. Every instance runs one; each email is claimed by one of them (SKIP LOCKED).
// An email that fails (the server is down, refuses, times out) is tried again with back-off from 30 s up to an hour
// between attempts, for a day; only then is it given up, with the reason kept and logged.

/** Seconds before attempt `n + 1`: 30 s, 1, 2, 4, 8, 16, 32 min, then hourly (platform/outbox-loop.ts). */
export const mailRetryInSeconds = retryInSeconds;
export const MAIL_GIVE_UP_MS = 24 * 3600 * 1000;
/** How long after an agent's first message of a burst its email is sent (issue 33: within two minutes). */
export const REPLY_MAIL_DELAY_SECONDS = 60;

export interface MailWorkerDeps {
  outbox: MailOutbox;
  mailer: Mailer;
  resumeTokens: ResumeTokens;
  widgetOf(id: string): WidgetSettings | undefined;
  /** Whether the shopper has the conversation open right now (an event stream of it is open on some instance). */
  isConnected(conversationId: string): Promise<boolean>;
  logger: Logger;
  /** How often the worker looks for due emails. */
  pollMs?: number;
  /** The first retry's wait (`mailRetryInSeconds`); tests shorten it. */
  firstRetrySeconds?: number;
  /** How emails name the store: the sender's name (`from`'s "Name <address>"); else the store's host. */
  storeName?: string;
}

/** The name of a sender written "Name <address>" (quotes dropped); undefined for a bare address. */
export function senderName(from: string): string | undefined {
  const name = /^\s*"?([^"<]*?)"?\s*</.exec(from)?.[1]?.trim();
  return name || undefined;
}

export interface MailWorker {
  /** Look now (an email was just scheduled). */
  wake(): void;
  stop(): Promise<void>;
}

/** Where an email's link points: the widget's `storeUrl`, else its first allowed origin that is one. */
export function storeBaseOf(widget: WidgetSettings): URL | null {
  for (const candidate of [widget.storeUrl, ...widget.allowedOrigins]) {
    if (!candidate || candidate === '*') continue;
    try {
      return new URL(candidate);
    } catch {}
  }
  return null;
}

export function startMailWorker(deps: MailWorkerDeps): MailWorker {
  const { outbox, mailer, logger } = deps;
  const retryIn = (attempts: number) => mailRetryInSeconds(attempts, deps.firstRetrySeconds);

  const linkOf = async (widget: WidgetSettings, conversationId: string) => {
    const base = storeBaseOf(widget);
    if (!base) return null;
    base.searchParams.set('service_resume', await deps.resumeTokens.issue(widget.id, conversationId));
    return base.toString();
  };

  const deliver = async (mail: ClaimedMail) => {
    const widget = deps.widgetOf(mail.widgetId);
    const conversation = await outbox.conversationOf(mail.conversationId);
    if (!widget || !conversation)
      return outbox.settle(mail, 'skipped', 'the widget or the conversation is gone');
    const store = deps.storeName ?? storeBaseOf(widget)?.host ?? widget.title;
    const language = mailLanguageOf(conversation.locale);
    const headers = { 'X-Service-Conversation': mail.conversationId };
    if (mail.kind === 'transcript') {
      const messages = await outbox.messagesOf(mail.conversationId);
      const text = transcriptMail({
        store,
        language,
        messages,
        link: await linkOf(widget, mail.conversationId),
        timeZone: widget.businessHours?.timeZone ?? 'UTC',
      });
      await mailer.send({ to: mail.toAddress, ...text, headers });
      return outbox.sent(mail);
    }
    const messages = await outbox.messagesOf(mail.conversationId, { agentAfterSeq: conversation.mailedSeq });
    const lastSeq = messages.at(-1)?.seq;
    if (messages.length === 0) return outbox.settle(mail, 'skipped', 'no agent message left to send');
    // The address now, not when the email was scheduled: the shopper may have changed or removed it since.
    if (!conversation.contactEmail) return outbox.settle(mail, 'skipped', 'the shopper removed the address');
    if (await deps.isConnected(mail.conversationId)) {
      // The shopper has the chat open (still, or again): they read it there, and the next email starts after these.
      await outbox.sent(mail, lastSeq);
      return outbox.settle(mail, 'skipped', 'the shopper was connected');
    }
    const text = replyMail({ store, language, messages, link: await linkOf(widget, mail.conversationId) });
    await mailer.send({ to: conversation.contactEmail, ...text, headers });
    await outbox.sent(mail, lastSeq);
    // An agent message stored while this one was being sent waits for the next email.
    const later = await outbox.messagesOf(mail.conversationId, { agentAfterSeq: lastSeq ?? 0 });
    if (later.length > 0) await outbox.scheduleReply(mail.conversationId, REPLY_MAIL_DELAY_SECONDS);
  };

  /** One batch of due emails; true when it was full (there may be more). */
  const round = async (): Promise<boolean> => {
    const due = await outbox.claimDue(10, retryIn);
    for (const mail of due) {
      try {
        await deliver(mail);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (Date.now() - mail.createdAt.getTime() >= MAIL_GIVE_UP_MS) {
          logger.error('email given up after a day of attempts', { mail: mail.id, kind: mail.kind, reason });
          await outbox.settle(mail, 'failed', reason).catch(() => {});
        } else {
          logger.warn('email not sent; trying again later', {
            mail: mail.id,
            kind: mail.kind,
            attempts: mail.attempts,
            inSeconds: retryIn(mail.attempts),
            reason,
          });
          await outbox.retryLater(mail, reason).catch(() => {});
        }
      }
    }
    return due.length === 10;
  };

  const loop = startOutboxLoop({ round, pollMs: deps.pollMs ?? 5000, logger, what: 'email worker' });
  return {
    wake: loop.wake,
    async stop() {
      await loop.stop();
      mailer.close();
    },
  };
}
