// What kind of answer a question asks for, beyond its words: "how long" and "wann" are answered by a line with a
// duration or a date, "how much" and "was kostet" by a line with a price, "which countries" and "liefert ihr nach …"
// by a line naming places, and a yes/no question about something the section never names ("do you ship to Japan?")
// by the line that says what is not done. Words alone miss these: "how", "long" and "wann" are stop words, and the
// answering line often shares no other word with the question. knowledge-passage.ts prefers, among the lines that
// answer the question's words, those that also give what it asks for.

/** A kind of answer a question asks for. */
export type AnswerCue = 'time' | 'price' | 'place' | 'negation';

/**
 * A case-insensitive pattern whose `\b` and `\w` know letters beyond ASCII: JavaScript's do not, so "\bösterreich"
 * would never match and "\w+" would stop at "ü".
 */
function words(source: string): RegExp {
  return new RegExp(
    source
      .replaceAll(
        String.raw`\b`,
        String.raw`(?:(?<![\p{L}\p{N}])(?=[\p{L}\p{N}])|(?<=[\p{L}\p{N}])(?![\p{L}\p{N}]))`,
      )
      .replaceAll(String.raw`\w`, String.raw`[\p{L}\p{N}']`),
    'iu',
  );
}

const ASKS_TIME = words(
  String.raw`\b(?:how\s+long|how\s+soon|how\s+many\s+(?:days|weeks|hours)|when|until\s+when|what\s+time|by\s+when|wie\s+lange?|wann|bis\s+wann|ab\s+wann|wie\s+schnell|wie\s+viele\s+(?:tage|wochen|stunden)|dauer\w*)\b`,
);
const ASKS_PRICE = words(
  String.raw`\b(?:how\s+much|what\s+(?:does|do|is|are)\s+\w+(?:\s+\w+)?\s+cost|cost\w*|price\w*|fee\w*|charge[sd]?|free|was\s+kost\w*|wie\s+teuer|wie\s+viel|kost\w*|preis\w*|gebühr\w*|gratis)\b`,
);
const ASKS_PLACE = words(
  String.raw`\b(?:which\s+countr\w*|what\s+countr\w*|where\s+(?:do|does|can)|(?:deliver|ship|send)\w*\s+(?:\w+\s+)?(?:to|outside|abroad)|welche\w*\s+länder\w*|wohin|(?:liefer|versend|schick)\w*\s+(?:\w+\s+){0,2}(?:nach|in\s+die|ins|ausland)|außerhalb)\b`,
);
/** A question answered by yes or no: it opens with a verb. */
const YES_NO = words(
  String.raw`^\s*(?:\w+[,!]\s*)?(?:do|does|did|can|could|is|are|will|would|may|have|has|kann|können|könnt|liefert|liefern|versendet|versenden|gibt|habt|haben|ist|sind|nehmt|nehmen|darf|dürfen|muss|bietet|bieten)\b`,
);

/** A line gives a duration, a time or a date. */
const GIVES_TIME = words(
  String.raw`(?:\d\s*(?:[-–]\s*\d+\s*)?(?:working\s+days?|business\s+days?|days?|hours?|weeks?|months?|years?|werktagen?|tagen?|stunden|wochen|monaten?|jahren?|am\b|pm\b|uhr\b|h\b)|\b(?:within|innerhalb|same\s+day|next\s+(?:working\s+|business\s+)?day|nächsten\s+werktag|am\s+selben\s+tag|noch\s+am\s+selben|bis\s+\d|ab\s+\d|noon|mittag|midnight|mitternacht|immediately|sofort|morgen|tomorrow|today|heute)|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|fourteen|thirty|ein|eine|einen|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|zwölf|vierzehn|dreißig)[\s-]+(?:years?|months?|weeks?|days?|hours?|jahre?n?|monate?n?|wochen?|tage?n?|stunden?|werktage?n?)\b)`,
);
/** A line gives a price or says something is free. */
const GIVES_PRICE = words(
  String.raw`(?:[€$£]\s*\d|\d[\d.,]*\s*(?:€|eur\b|euro\b|usd\b|chf\b|£|\$)|\b(?:free|kostenlos|kostenfrei|gratis|no\s+charge|costs?|gebühr\w*|kosten|versandkostenfrei))`,
);
/** A line names places or where something is (not) done. */
const GIVES_PLACE = words(
  String.raw`\b(?:countr\w+|abroad|worldwide|international\w*|outside|europe|eu|ausland\w*|außerhalb|weltweit|land|länder\w*|europa|germany|deutschland|austria|österreich|switzerland|schweiz|france|frankreich|italy|italien|spain|spanien|netherlands|niederlande\w*|belgium|belgien|poland|polen|denmark|dänemark|sweden|schweden|kingdom|königreich|britain|großbritannien|england|ireland|irland|usa|america|amerika|canada|kanada)\b`,
);
/** A line says what is not done. */
const NEGATES = words(
  String.raw`\b(?:not|no|never|cannot|can't|don't|doesn't|won't|unfortunately|only|nicht|kein\w*|nie|niemals|leider|nur|ausgeschlossen|excluded)\b`,
);

/**
 * The kinds of answer `question` asks for.
 *
 * @example
 * questionCues('How long does delivery to Austria take?'); // → Set { 'time' }
 * questionCues('Was kostet der Versand?');                   // → Set { 'price' }
 */
export function questionCues(question: string): Set<AnswerCue> {
  const cues = new Set<AnswerCue>();
  if (ASKS_TIME.test(question)) cues.add('time');
  if (ASKS_PRICE.test(question)) cues.add('price');
  if (ASKS_PLACE.test(question)) cues.add('place');
  if (YES_NO.test(question)) cues.add('negation');
  return cues;
}

/**
 * The kinds of answer a line of the store's text gives.
 *
 * @example
 * lineCues('Parcels to Austria take 2–4 working days and cost €6.95.'); // → Set { 'time', 'price', 'place' }
 */
export function lineCues(line: string): Set<AnswerCue> {
  const cues = new Set<AnswerCue>();
  if (GIVES_TIME.test(line)) cues.add('time');
  if (GIVES_PRICE.test(line)) cues.add('price');
  if (GIVES_PLACE.test(line)) cues.add('place');
  if (NEGATES.test(line)) cues.add('negation');
  return cues;
}
