// Whether a shopper asks for a whole section of the store's knowledge rather than the answer to a question (DESIGN
// "Answers that fit the question": the passage that answers, "the whole section only when asked"). Asked in the ways
// shoppers write it, English and German: "show me the whole return policy", "the full shipping terms", "everything
// about returns", "die ganze Rückgabe-Richtlinie", "alle Infos zum Versand", "die kompletten AGB".
//
// A word of wholeness alone is not enough ("Do I get a full refund?", "Ist die ganze Jacke wasserdicht?"): it must
// come with a word for a text (policy, terms, section, page, information; German compounds end in one:
// "Rückgaberichtlinie", "Versandbedingungen"), or be "everything/alles" about something.

const WHOLE =
  /\b(?:whole|full|entire|complete|all|ganzen?|gesamten?|vollständigen?|kompletten?|komplett|alle)\b/iu;
const TEXT_WORD =
  /^(?:polic(?:y|ies)|terms|conditions|rules|section|page|text|infos?|information|details|document|faq|agb|bedingungen|richtlinien?|regeln|regelungen|abschnitt|seite|informationen|hinweise|bestimmungen)$/iu;
/** German compounds whose head is a word for a text ("Rückgaberichtlinie", "Versandbedingungen", "Lieferinfos"). */
const TEXT_HEAD =
  /(?:richtlinien?|bedingungen|regeln|regelungen|bestimmungen|hinweise|infos|informationen)$/iu;
const EVERYTHING = /\b(?:everything|all)\s+(?:about|on|regarding)\b|\balles\s+(?:über|zu|zum|zur)\b/iu;

/**
 * @example
 * asksForWholeSection('show me the whole return policy'); // → true
 * asksForWholeSection('die ganze Rückgabe-Richtlinie');    // → true
 * asksForWholeSection('Do I get a full refund?');          // → false
 */
export function asksForWholeSection(message: string): boolean {
  if (EVERYTHING.test(message)) return true;
  if (!WHOLE.test(message)) return false;
  const words = message.match(/[\p{L}]+/gu) ?? [];
  return words.some((word) => TEXT_WORD.test(word) || (word.length > 8 && TEXT_HEAD.test(word)));
}
