/** Types of scripts/eval-knowledge.mjs, for the unit tests (TypeScript). */
export interface KnowledgeQuestionRow {
  lang: 'en' | 'de';
  section: string;
  text: string;
  expect: Array<string | string[]>;
  whole?: boolean;
}

export declare const KNOWLEDGE_FILE: string;
export declare function knowledgeSections(): Array<{ title: string; text: string }>;
export declare function readKnowledgeQuestions(
  file: string,
  CannotRun?: new (message: string) => Error,
): KnowledgeQuestionRow[];
