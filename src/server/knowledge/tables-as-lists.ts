// A store's knowledge is markdown a merchant wrote, and merchants write tables ("Country | Delivery time | Cost").
// The widget renders a small markdown subset without tables (its byte budget), where a table would show as rows of
// pipes. The local engine quotes sections through this: each table row becomes a list item that names its columns,
// which reads well in a narrow chat bubble and on a screen reader.

const ROW = /^\s*\|?(.*?)\|?\s*$/;
/** A table's second line: "| --- | :---: |". */
const SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/;

const cells = (line: string): string[] => (ROW.exec(line)?.[1] ?? '').split('|').map((cell) => cell.trim());

/** Whether a table starts at line `i`: a line with "|" over a separator line. */
export const startsTable = (lines: readonly string[], i: number): boolean =>
  lines[i].includes('|') && i + 1 < lines.length && SEPARATOR.test(lines[i + 1]);

/** Where the table's rows from line `from` on end: at the first line that is blank or has no "|". */
export function tableEnd(lines: readonly string[], from: number): number {
  let i = from;
  while (i < lines.length && lines[i].includes('|') && lines[i].trim() !== '') i++;
  return i;
}

/**
 * @example
 * tablesAsLists('| Country | Time |\n|---|---|\n| Germany | 2 days |');
 * // → '- **Germany**: Time 2 days'
 */
export function tablesAsLists(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (startsTable(lines, i)) {
      const names = cells(lines[i]);
      const end = tableEnd(lines, i + 2);
      for (const row of lines.slice(i + 2, end)) {
        const [first, ...rest] = cells(row);
        const described = rest
          .map((cell, k) => (cell ? `${names[k + 1] ? `${names[k + 1]} ` : ''}${cell}` : ''))
          .filter(Boolean)
          .join('; ');
        out.push(`- **${first}**${described ? `: ${described}` : ''}`);
      }
      i = end - 1;
      continue;
    }
    out.push(lines[i]);
  }
  return out.join('\n');
}
