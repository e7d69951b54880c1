import { startsTable, tableEnd, tablesAsLists } from './tables-as-lists';

// A section's markdown as the pieces a passage is chosen from (knowledge-passage.ts): the sentences of its paragraphs,
// its list items, its table rows (as list items that name their columns, tables-as-lists.ts), and the lines that
// introduce them (a paragraph ending in ":" before a list, a sub-heading). Each piece keeps its own markdown, so a
// passage is the merchant's text, never markup of its own.

export interface SectionUnit {
  /** The piece's markdown: a sentence, or a list item's whole line(s) ("- …"). */
  text: string;
  kind: 'sentence' | 'item' | 'lead' | 'heading';
  /** The block it belongs to (a paragraph, a list, a heading): pieces of one block are joined on one line or list. */
  block: number;
  /** The unit that introduces it: a list's lead or the sub-heading above, when there is one. */
  lead?: number;
}

const ITEM = /^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+/;
const HEADING = /^\s{0,3}#{1,6}\s+\S/;
const FENCE = /^\s{0,3}(?:```|~~~)/;
/** A line that is bold alone, maybe with a colon: "**Berlin store** (Beispielstraße 12):" introduces what follows. */
const BOLD_LINE = /^\s*\*\*[^*]+\*\*[^.!?]*:\s*$/;
/** Words after which a full stop ends no sentence (English and German abbreviations). */
const ABBREVIATIONS = new Set(
  (
    'e.g i.e etc vs approx incl excl no nr mr mrs ms dr st z.b bzw ca inkl zzgl ggf usw u.a d.h evtl max min ' +
    'mo di mi do fr sa so tel str abs'
  ).split(' '),
);

/**
 * The section's pieces, in order.
 *
 * @example
 * sectionUnits('We accept:\n\n- Visa\n- PayPal\n\nCards are charged at shipping. Not before.');
 * // → [{ text: 'We accept:', kind: 'lead', block: 0 }, { text: '- Visa', kind: 'item', block: 1, lead: 0 }, …,
 * //    { text: 'Cards are charged at shipping.', kind: 'sentence', block: 2 }, { text: 'Not before.', … }]
 */
export function sectionUnits(markdown: string): SectionUnit[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const units: SectionUnit[] = [];
  let block = -1;
  /** The open sub-heading, which leads what follows until the next. */
  let heading: number | undefined;
  let paragraph: string[] = [];
  let inList = false;
  let listLead: number | undefined;

  const flushParagraph = (beforeList: boolean) => {
    if (paragraph.length === 0) return;
    const text = paragraph.join('\n').trim();
    paragraph = [];
    block++;
    if (beforeList && text.endsWith(':')) {
      units.push({ text, kind: 'lead', block, ...(heading === undefined ? {} : { lead: heading }) });
      listLead = units.length - 1;
      return;
    }
    if (BOLD_LINE.test(text)) {
      units.push({ text, kind: 'heading', block });
      heading = units.length - 1;
      return;
    }
    for (const sentence of sentences(text))
      units.push({
        text: sentence,
        kind: 'sentence',
        block,
        ...(heading === undefined ? {} : { lead: heading }),
      });
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (FENCE.test(line)) {
      // A code block stays one piece, as written.
      flushParagraph(false);
      const fence: string[] = [line];
      for (i++; i < lines.length; i++) {
        fence.push(lines[i]);
        if (FENCE.test(lines[i])) break;
      }
      block++;
      inList = false;
      units.push({ text: fence.join('\n'), kind: 'sentence', block });
      continue;
    }
    if (startsTable(lines, i)) {
      // A table: each row a list item that names its columns, under the paragraph that introduces it.
      const end = tableEnd(lines, i);
      const table = lines.slice(i, end);
      i = end - 1;
      flushParagraph(true);
      inList = false;
      block++;
      const lead = listLead ?? heading;
      for (const row of tablesAsLists(table.join('\n')).split('\n'))
        units.push({ text: row, kind: 'item', block, ...(lead === undefined ? {} : { lead }) });
      listLead = undefined;
      continue;
    }
    if (line.trim() === '') {
      if (inList) continue;
      // A paragraph ending in ":" before a list (after blank lines) is the list's lead.
      let next = i + 1;
      while (next < lines.length && lines[next].trim() === '') next++;
      flushParagraph(next < lines.length && (ITEM.test(lines[next]) || startsTable(lines, next)));
      continue;
    }
    if (HEADING.test(line)) {
      flushParagraph(false);
      inList = false;
      block++;
      units.push({ text: line.trim(), kind: 'heading', block });
      heading = units.length - 1;
      continue;
    }
    if (ITEM.test(line)) {
      if (!inList) {
        flushParagraph(true);
        inList = true;
        block++;
        if (listLead === undefined) listLead = heading;
      }
      units.push({
        text: line.trimEnd(),
        kind: 'item',
        block,
        ...(listLead === undefined ? {} : { lead: listLead }),
      });
      continue;
    }
    if (inList) {
      // An indented line continues the item; anything else ends the list.
      const last = units[units.length - 1];
      if (/^\s+\S/.test(line) && last.kind === 'item') {
        last.text += `\n${line.trimEnd()}`;
        continue;
      }
      inList = false;
      listLead = undefined;
    }
    paragraph.push(line);
  }
  if (!inList) flushParagraph(false);
  return units;
}

/**
 * A paragraph's sentences: cut after ".", "!", "?" or "…" (and a closing quote or bracket) where the next begins with
 * a capital, a digit or an opening mark, and not after an abbreviation or a day's number ("1. Mai").
 */
export function sentences(paragraph: string): string[] {
  const out: string[] = [];
  const pattern = /[.!?…]+["“”'’)\]*]*\s+(?=["„“'‘(*\p{Lu}\p{N}])/gu;
  let start = 0;
  for (const match of paragraph.matchAll(pattern)) {
    const end = (match.index ?? 0) + match[0].length;
    const before = paragraph.slice(start, match.index ?? 0);
    const lastWord = (/([\p{L}\p{N}.]+)$/u.exec(before)?.[1] ?? '').toLowerCase();
    // "z. B.", "J. Smith", "1. Mai": a lone letter or a day's number before the full stop.
    if (match[0].startsWith('.') && (ABBREVIATIONS.has(lastWord) || /^(?:\p{L}|\d{1,2})$/u.test(lastWord)))
      continue;
    out.push(paragraph.slice(start, end).trim());
    start = end;
  }
  const rest = paragraph.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}
