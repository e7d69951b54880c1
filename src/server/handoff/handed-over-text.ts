import type { ReplyLanguage } from '../core/reply-language';
import type { ModeState } from './handoff-store';

// What a reply says when its turn found the conversation no longer with the assistant (issue 21): a person was asked
// for, or took it over, between the shopper's message and the turn, or during the turn. It ends the reply as a normal
// answer: no empty bubble, and no error that the widget would offer to send again.

/** "Anna from our team has taken over …" (agent), or "A person from our team will answer you here." (waiting). */
export function handedOverText(state: ModeState | null, language: ReplyLanguage): string {
  const name = state?.mode === 'agent' ? state.agent?.name : undefined;
  if (language === 'de') {
    return name
      ? `${name} aus unserem Team hat das Gespräch übernommen und antwortet Ihnen hier.`
      : 'Jemand aus unserem Team antwortet Ihnen hier.';
  }
  return name
    ? `${name} from our team has taken over this conversation and will answer you here.`
    : 'A person from our team will answer you here.';
}
