// A store's knowledge is markdown a merchant wrote, and merchants write tables ("Country | Delivery time | Cost").
// The widget renders a small markdown subset without tables (its byte budget), where a table would show as rows of
// pipes. The local engine quotes sections through this: each table row becomes a list item that names its columns,
// which reads well in a narrow chat bubble and on a screen reader.

const ROW = /^\s*\|?(.*?)\|?\s*$/;
/** A table's second line: "| --- | :---: |". */
export const SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/;

const cells = (line: string): string[] => (ROW.exec(line)?.[1] ?? '').split('|').map((cell) => cell.trim());

/**
 * @example
 * tablesAsLists('| Country | Time |\n|---|---|\n| Germany | 2 days |');
 * // → '- **Germany**: Time 2 days'
 */
export function tablesAsLists(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i];
    if (header.includes('|') && i + 1 < lines.length && SEPARATOR.test(lines[i + 1])) {
      const names = cells(header);
      i += 2;
      for (; i < lines.length && lines[i].includes('|') && lines[i].trim() !== ''; i++) {
        const [first, ...rest] = cells(lines[i]);
        const described = rest
          .map((cell, k) => (cell ? `${names[k + 1] ? `${names[k + 1]} ` : ''}${cell}` : ''))
          .filter(Boolean)
          .join('; ');
        out.push(`- **${first}**${described ? `: ${described}` : ''}`);
      }
      i--;
      continue;
    }
    out.push(header);
  }
  return out.join('\n');
}
