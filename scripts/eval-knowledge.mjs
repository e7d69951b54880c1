// The knowledge suite of `npm run eval` (issue 31 item 8): store questions in English and German sent to the eval's
// store widget, whose knowledge is test-data/eval-knowledge/store-en.md and store-de.md (written for this project:
// test-data/eval-README.md), each reply judged for the passage that answers and its length
// (scripts/eval-knowledge-score.mjs).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeKnowledgeTurn, judgeKnowledge, KNOWLEDGE_MEASURES } from './eval-knowledge-score.mjs';
import { readJsonl } from './eval-measures.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const KNOWLEDGE_DIR = resolve(root, 'test-data/eval-knowledge');
export const KNOWLEDGE_FILE = resolve(KNOWLEDGE_DIR, 'questions.jsonl');

/**
 * The store's sections, as a merchant enters them in the widget's `knowledge`: each `## ` heading of the two documents
 * a title, the text under it the section's markdown. The documents are wrapped at 120 columns for reading; a
 * paragraph's lines are joined again (a table row or a list item stays a line), as the shop's own editor holds them.
 */
export function knowledgeSections() {
  const sections = [];
  for (const file of ['store-en.md', 'store-de.md']) {
    const text = readFileSync(resolve(KNOWLEDGE_DIR, file), 'utf8');
    for (const part of text.split(/^## /m).slice(1)) {
      const [title, ...lines] = part.split('\n');
      const blocks = lines
        .join('\n')
        .trim()
        .split(/\n\s*\n/)
        .map((block) =>
          block
            .split('\n')
            .reduce((out, line) => {
              const own = /^\s*(\||\d+\.\s|[-*]\s)/.test(line);
              if (own || out.length === 0) out.push(line.trim());
              else out[out.length - 1] += ` ${line.trim()}`;
              return out;
            }, [])
            .join('\n'),
        );
      sections.push({ title: title.trim(), text: blocks.join('\n\n') });
    }
  }
  return sections;
}

/** The questions, checked: language, text, the section they are about and the pieces of the answering passage. */
export function readKnowledgeQuestions(file, CannotRun = Error) {
  const titles = new Set(knowledgeSections().map((s) => s.title));
  return readJsonl(
    file,
    CannotRun,
    (row, where) => {
      if (!['en', 'de'].includes(row?.lang)) throw new CannotRun(`${where}: lang must be en or de`);
      if (typeof row.text !== 'string' || !row.text.trim())
        throw new CannotRun(`${where}: text must be a string`);
      if (!titles.has(row.section))
        throw new CannotRun(`${where}: no section titled ${JSON.stringify(row.section)}`);
      const pieces = Array.isArray(row.expect) ? row.expect : [];
      if (
        pieces.length === 0 ||
        !pieces.every((p) =>
          Array.isArray(p)
            ? p.length > 0 && p.every((a) => typeof a === 'string' && a)
            : typeof p === 'string' && p,
        )
      )
        throw new CannotRun(`${where}: expect must list strings (or lists of alternatives)`);
      return row;
    },
    `the knowledge questions ${file} are missing`,
  );
}

/** How runJudged (scripts/eval-wire.mjs) judges a knowledge reply. */
export const KNOWLEDGE_JUDGING = {
  measures: KNOWLEDGE_MEASURES,
  judge: judgeKnowledge,
  describe: (_, record) => describeKnowledgeTurn(record),
};
