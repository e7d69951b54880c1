import { expect } from 'vitest';
import type { OrderCard, ProductCard } from '../../protocol/cards';
import type { ActionDefinition } from '../config/service-config';
import type {
  ActionResult,
  EngineTurn,
  KnowledgeHit,
  ParameterValue,
  ProductQuery,
  ReplyEvent,
} from '../core/engine';
import { createOpenAiEngine, type OpenAiEngineOptions } from '../engine/openai/create-openai-engine';
import { EngineError } from '../engine/openai/engine-error';
import type { FakeOpenAiServer } from './fake-openai-server';

// Test support for the openai engine's tests: one turn of the real engine against the fake chat-completions server,
// with tools that record what they were asked. Not part of the service.

export const API_KEY = 'sk-test-9f8e7d6c5b4a39281706';

export const orderStatus: ActionDefinition = {
  name: 'Get order status',
  description: 'Looks up where an order is, by its order number.',
  method: 'GET',
  url: 'https://shop.example/orders/{order_id}',
  parameters: [
    { name: 'order_id', type: 'string', description: 'The order number', required: true },
    { name: 'qty', type: 'number', required: false },
  ],
  enabled: true,
};

export const orderCard: OrderCard = {
  order_id_value: 'A-77',
  timeline: {
    step: [
      { label: 'Paid', status: 'completed' },
      { label: 'Packed', status: 'completed' },
      { label: 'Shipped', status: 'in_progress' },
      { label: 'Delivered', status: 'pending' },
    ],
  },
};

export interface HarnessOptions {
  engine?: Partial<OpenAiEngineOptions>;
  turn?: Partial<EngineTurn>;
  actionResult?: ActionResult;
  products?: ProductCard[];
  knowledge?: KnowledgeHit[];
  /** Called on every emitted event (e.g. to abort after the first delta). */
  onEvent?: (event: ReplyEvent) => void;
}

/** Starts one turn; `result` settles when it ends, the arrays fill as it runs. */
export function runTurn(server: FakeOpenAiServer, options: HarnessOptions = {}) {
  const events: ReplyEvent[] = [];
  const calls: Array<{ action: string; params: Record<string, ParameterValue> }> = [];
  const searches: ProductQuery[] = [];
  const knowledgeSearches: Array<{ query: string; limit: number | undefined }> = [];
  const engine = createOpenAiEngine({
    baseUrl: server.baseUrl,
    apiKey: API_KEY,
    model: 'test-model',
    ...options.engine,
  });
  const turn: EngineTurn = {
    widgetId: 'demo',
    conversationId: 'c1',
    history: [],
    message: 'Where is my order A-77?',
    userData: null,
    customInstructions: null,
    actions: [orderStatus],
    state: null,
    signal: new AbortController().signal,
    tools: {
      callAction: async (action, params) => {
        calls.push({ action: action.name, params });
        return (
          options.actionResult ?? {
            ok: true,
            aiText: '{"order_id_value":"A-77","status":"shipped"}',
            part: { type: 'order-card', card: orderCard },
          }
        );
      },
      searchKnowledge: async (query, limit) => {
        knowledgeSearches.push({ query, limit });
        return options.knowledge ?? [];
      },
      searchProducts: async (query) => {
        searches.push(query);
        return (options.products ?? []).map((card) => ({ card, inStock: true, missing: [] }));
      },
    },
    ...options.turn,
  };
  const result = engine.reply(turn, async (event) => {
    events.push(event);
    options.onEvent?.(event);
  });
  const text = () => events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
  return { result, events, calls, searches, knowledgeSearches, text };
}

/** The EngineError the promise rejects with (the test fails when it resolves or rejects with anything else). */
export async function engineError(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}
