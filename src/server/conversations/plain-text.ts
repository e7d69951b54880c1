/**
 * A message's markdown as a line of plain text, for a preview (the console's queue, a customer's list of
 * conversations): links and images by their words, no emphasis marks, heading hashes, list bullets, quote marks or
 * code fences. Not a renderer: what is left of a construct it does not know is its text.
 */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^[ \t]*(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+|\d+[.)][ \t]+)/gm, '')
    .replace(/```[^\n]*/g, '')
    .replace(/(?<![\w*_~`])(\*\*|__|\*|_|`|~~)(?=\S)([^\n]*?\S)\1(?![\w*_~`])/g, '$2');
}
