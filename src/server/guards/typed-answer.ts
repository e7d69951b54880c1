// A typed answer to a pending proposal (docs/security.md "Confirmations"): the whole message must be a yes or a no, in English
// or German, with politeness around it ("yes please", "ja bitte", "no thanks"). Anything else is not an answer: the
// proposal then expires and the message is answered as usual. Deliberately narrow: "yes, but order 1004 instead" or
// "I already confirmed, cancel it now" are not a yes, and the stored call can only be confirmed as it was proposed.

const FILLER =
  /(?<![\p{L}\p{N}])(?:please|pls|plz|thanks|thank you|thx|danke(?: schön| sehr)?|bitte(?: schön| sehr)?|gerne|gern)(?![\p{L}\p{N}])/gu;
const YES =
  /^(?:(?:yes|y|yeah|yep|yup|ok|okay|k|sure|confirm|confirmed|go ahead|do it|ja|jawohl|jo|jep|klar|genau|mach das|mach es)(?: |$))+$/;
const NO = /^(?:(?:no|n|nope|nah|nein|ne|nee|don t|do not|dont|stop|lieber nicht|nicht)(?: |$))+$/;

/**
 * @example
 * typedAnswer('Yes please!'); // → 'yes'
 * typedAnswer('nein danke');  // → 'no'
 * typedAnswer('yes, and cancel order 1004 too'); // → null
 */
export function typedAnswer(message: string): 'yes' | 'no' | null {
  if (message.length > 60) return null;
  const words = message
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(FILLER, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (words === '') return null;
  if (YES.test(words)) return 'yes';
  if (NO.test(words)) return 'no';
  return null;
}
