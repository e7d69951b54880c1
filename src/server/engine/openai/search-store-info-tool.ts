import { err, ok, type Result } from '../../../protocol/result';
import type { KnowledgeHit } from '../../core/engine';
import type { ChatTool } from './stream-completion';
import { thirdPartyData } from './third-party-data';

// The store's own knowledge (DESIGN "Store knowledge": widget config `knowledge` and `knowledgeUrls`) as a tool for
// the model, offered always: a store question (shipping, returns, payment, opening hours, contact) is answered from
// the best-matching sections, and the answer names the section. The sections are the merchant's documents, possibly
// fetched from the web, so they reach the model as third-party data. Whole sections, not the passages the local engine
// quotes (knowledge-passage.ts): the model picks the lines that answer itself, and a passage chosen by words could
// leave out the sentence that qualifies them ("… except sale items").

export const SEARCH_STORE_INFO_TOOL = 'search_store_info';
/** Sections the model gets for one question at most. */
export const STORE_INFO_LIMIT = 3;
/** Characters of one section the model reads at most (a section may hold 20,000); the rest is cut, and it is told. */
export const STORE_INFO_SECTION_MAX_CHARS = 6_000;
const QUERY_MAX_CHARS = 200;

export const SEARCH_STORE_INFO: ChatTool = {
  type: 'function',
  function: {
    name: SEARCH_STORE_INFO_TOOL,
    description:
      "Searches the store's own information: shipping, delivery times and costs, returns and refunds, payment " +
      'methods, opening hours, contact details and other store policies. Returns the best-matching sections ' +
      `(at most ${STORE_INFO_LIMIT}), each with its title. Answer from them and name the section you used.`,
    parameters: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: "The shopper's question, or its keywords (for example: return policy, delivery time).",
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
  },
};

/** The model's arguments → the search text; every error is a sentence for the model. */
export function readStoreInfoArguments(args: Record<string, unknown>): Result<string, string> {
  const unknown = Object.keys(args).filter((key) => key !== 'query');
  if (unknown.length > 0)
    return err(`unknown parameter(s): ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
  const query = typeof args.query === 'string' ? args.query.trim().slice(0, QUERY_MAX_CHARS) : '';
  return query ? ok(query) : err('"query" is required and must be a non-empty string');
}

/**
 * What the model reads: each section in its own third-party block, with its title and where it came from.
 *
 * @example
 * storeInfoToolResult('delivery time', [{ title: 'Shipping', text: '2–4 days.', source: null, score: 3 }]);
 * // → '1 matching section of the store\'s information, best first. …\n<third_party_data source="…">\nTitle: Shipping…'
 */
export function storeInfoToolResult(query: string, hits: KnowledgeHit[]): string {
  if (hits.length === 0) {
    return (
      `No matching section in the store's information for ${JSON.stringify(query)}. Do not guess the store's ` +
      'policies: tell the shopper you do not have that information here.'
    );
  }
  const sections = hits.slice(0, STORE_INFO_LIMIT).map((hit, i) => {
    const cut = hit.text.length > STORE_INFO_SECTION_MAX_CHARS;
    const text = cut
      ? `${hit.text.slice(0, STORE_INFO_SECTION_MAX_CHARS)}\n[… the rest of this section was cut]`
      : hit.text;
    const source = hit.source ?? "the store's settings";
    return thirdPartyData(
      `store information, section ${i + 1}`,
      `Title: ${hit.title}\nSource: ${source}\n\n${text}`,
    );
  });
  const count = sections.length;
  return (
    `${count} matching ${count === 1 ? 'section' : 'sections'} of the store's information, best first. Answer ` +
    'from them and name the section (its title) you used; if none answers the question, say you do not have that ' +
    `information.\n${sections.join('\n')}`
  );
}
