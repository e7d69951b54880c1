/** Types of scripts/eval-knowledge-score.mjs, for its unit test (TypeScript). */
export interface KnowledgeQuestion {
  expect: Array<string | string[]>;
  whole?: boolean;
}

export interface KnowledgeVerdict {
  measure: 'passage' | 'short';
  value: number;
  why: string | null;
}

export declare const KNOWLEDGE_MEASURES: Array<'passage' | 'short'>;
export declare const KNOWLEDGE_GOALS: Record<'passage' | 'short', number>;
export declare const ANSWER_MAX_CHARS: number;
export declare function visibleText(markdown: string): string;
export declare function fold(text: string): string;
export declare function describeKnowledgeTurn(record: { text: string; failure?: string }): string;
export declare function judgeKnowledge(
  question: KnowledgeQuestion,
  record: { text: string; failure?: string },
): KnowledgeVerdict[];
