import type { ActionDefinition } from '../../config/service-config';
import { choicesPart } from '../../core/choices';
import {
  type ActionResult,
  type AssistantEngine,
  type AwaitingConfirmation,
  type CatalogFacets,
  type EngineTurn,
  IDENTITY_REQUIRED,
  isAwaitingConfirmation,
  type KnowledgeHit,
  needsConfirmation,
  type ParameterValue,
  type ReplyEvent,
} from '../../core/engine';
import { detectLanguage, type ReplyLanguage, replyLanguage, shopperTexts } from '../../core/reply-language';
import { passageOf } from '../../knowledge/knowledge-passage';
import { asksForWholeSection } from '../../knowledge/whole-section-request';
import {
  type CancelOrderState,
  canCancelOrders,
  continueCancellation,
  presentCancellation,
  startCancellation,
} from './cancel-order-flow';
import { cueWords, extractParameters, missingParameters } from './extract-parameters';
import { matchAction } from './match-action';
import {
  cancelOrderAction,
  guestEmailParameter,
  orderNumberParameter,
  orderStatusAction,
  valuesBesideOrderNumber,
} from './order-actions';
import { answeredOrderNumber } from './order-numbers';
import {
  answerPageProduct,
  answerProductInView,
  answerWhichProduct,
  type WhichProduct,
} from './page-product';
import { PHRASES, type Phrases } from './phrases';
import { answerProductRequest } from './product-answer';
import { readRequest } from './read-request';
import { readShopperConstraints } from './shopper-constraints';
import { has } from './shopper-words';
import { streamText } from './stream-text';

/** What the local engine remembers between turns: the action it is collecting parameters for. */
interface LocalState {
  pending?: {
    action: string;
    values: Record<string, ParameterValue>;
    asked: string;
    /** The order numbers it asked the shopper to choose from. */
    choices?: string[];
  };
  /** The order-cancellation conversation under way (issue #7). */
  cancelOrder?: CancelOrderState;
  /** It asked which of the products it showed a question was about (page-product.ts). */
  whichProduct?: WhichProduct;
}

type Emit = (event: ReplyEvent) => Promise<void>;

const NO_FACETS: CatalogFacets = { brands: [], categories: [] };
const DROP = /^(?:cancel|stop|never ?mind|forget it|abbrechen|egal|vergiss es)\b/i;
const NAME_KEYS = ['firstName', 'first_name', 'givenName', 'name', 'fullName', 'full_name'];
/** An answer from the store's knowledge is at most this long (DESIGN "Answers that fit the question")... */
const KNOWLEDGE_ANSWER_MAX = 600;
/** ... unless the shopper asks for the whole section, which is quoted up to this many characters. */
const WHOLE_SECTION_MAX = 8_000;
/** Added to a general "when does my order arrive?" so the shipping section is found whatever words it uses. */
const DELIVERY_QUERY = 'shipping delivery time days versand lieferung lieferzeit tage';
const CONTACT_QUERY = 'contact email e-mail phone telephone hours reach kontakt telefon erreichbar';

/**
 * The default engine: offline and deterministic, so a store works, and tests are exact, without any model. It reads
 * what the shopper asks for (read-request.ts: orders, cancellations, a person, greetings) in English and German, with
 * typos and filler; calls the store's actions with typed parameters it collects over as many turns as it takes;
 * answers store questions from the store's knowledge, product questions from the catalog, and questions about the
 * product on the page (page-product.ts) from its catalog entry; and says plainly what it can do when nothing matches.
 * It answers in the turn's language (the service works it out: the message's, else the shopper's earlier messages',
 * else the widget's locale), or works it out the same way when called on its own.
 */
export function createLocalEngine(): AssistantEngine {
  return {
    async reply(turn, emit) {
      const language = turn.language ?? replyLanguage(turn.message, turn.locale, shopperTexts(turn.history));
      const p = PHRASES[language];
      const say = (text: string) => streamText(text, emit);
      const state = (turn.state ?? {}) as LocalState;
      const message = turn.message.trim();
      const statusAction = orderStatusAction(turn.actions);
      const cancelAction = cancelOrderAction(turn.actions);

      // The shopper said yes to a proposal and the service made the call: present its result like any call's.
      if (turn.confirmed) {
        const { confirmed } = turn;
        if (confirmed.kind === 'cancel-order')
          await presentCancellation(confirmed.request.orderId, confirmed.result, emit, language);
        else await present(confirmed.action, confirmed.result, emit, p);
        return { state: {} };
      }

      const { request, words } = readRequest(message);

      // A request for a person always wins: whatever was under way, the shopper wants someone else now.
      if (request.kind === 'person') {
        await handOver(turn, language, emit);
        return { state: {} };
      }

      if (state.cancelOrder && request.kind !== 'cancel-order') {
        const choices = state.cancelOrder.choices;
        const chosen = choices && pickChoice(message, choices);
        const continued = chosen
          ? await startCancellation(turn, [chosen], cancelAction, language, emit)
          : await continueCancellation(turn, state.cancelOrder, cancelAction, language, emit);
        if (continued) return continued;
      }
      if (request.kind === 'cancel-order')
        return startCancellation(turn, [...request.orderNumbers], cancelAction, language, emit);

      if (state.pending) {
        const action = turn.actions.find((a) => a.name === state.pending?.action && a.enabled);
        if (DROP.test(message)) {
          await say(p.dropped);
          return { state: {} };
        }
        if (action && request.kind !== 'order-status') {
          const values = {
            ...state.pending.values,
            ...answerFor(message, action, state.pending, action === statusAction),
          };
          // A reply that holds no answer and says more than a few words is the shopper moving on ("what payment
          // methods do you take?"): it is answered as a new question, and the question asked is dropped.
          const answered = values[state.pending.asked] !== undefined;
          if (answered || words.length <= 3) return run(turn, action, values, emit, p);
        }
      }

      // The store's other actions, matched by their names; the order actions are reached through their requests
      // only, so "can I place an order from Canada?" does not start an order lookup.
      const others = turn.actions.filter((a) => a !== statusAction && a !== cancelAction);
      const match = matchAction(message, others);
      // "Return an item from order 1003" names an order but asks for the store's return action.
      const statusAsked = request.kind === 'order-status' && (request.asksWhere || !match);
      if (statusAsked && statusAction) {
        const parameter = orderNumberParameter(statusAction);
        if (!parameter) return run(turn, statusAction, {}, emit, p);
        const [first, ...others] = request.orderNumbers;
        // Whatever else the message gives (a guest's email) is kept for the call.
        const rest = valuesBesideOrderNumber(message, statusAction, parameter);
        if (others.length > 0) {
          await say(p.whichOfThese(request.orderNumbers));
          const chips = choicesPart([...request.orderNumbers]);
          if (chips) await emit({ type: 'part', part: chips });
          return {
            state: {
              pending: {
                action: statusAction.name,
                values: rest,
                asked: parameter.name,
                // A copy: the reading is shared (read-request.ts), the state is the turn's own.
                choices: [...request.orderNumbers],
              },
            },
          };
        }
        if (first !== undefined) {
          return run(turn, statusAction, { ...rest, [parameter.name]: first }, emit, p);
        }
        // "How long until my order arrives?": the store's shipping times, and the offer to look one order up.
        if (request.whenOnly) {
          const hit = pickSection(
            await turn.tools.searchKnowledge(`${message} ${DELIVERY_QUERY}`, 3),
            language,
          );
          if (hit) {
            await say(
              `${sectionAnswer(hit, p, message, p.orderLookupOffer.length + 2)}\n\n${p.orderLookupOffer}`,
            );
            return { state: { pending: { action: statusAction.name, values: {}, asked: parameter.name } } };
          }
        }
        await say(p.whichOrder);
        return { state: { pending: { action: statusAction.name, values: {}, asked: parameter.name } } };
      }

      // The shopper picked one of the products it asked about: the question they had asked is answered about it.
      if (state.whichProduct && (await answerWhichProduct(state.whichProduct, turn, language, emit)))
        return { state: {} };

      // On a product page, "does it come in blue?" is about the product there (issue 20).
      if (request.kind === 'other' && (await answerPageProduct(turn, language, emit))) return { state: {} };

      if (request.kind === 'greeting') {
        if (request.thanksOnly) await say(p.welcome);
        else {
          const name = shopperName(turn);
          await say(`${p.hi(name)} ${capabilities(turn, p, canCancelOrders(turn, cancelAction), language)}`);
          // The store's starters: the widget shows them only before the first message, and a greeting is that
          // moment again. Only for a greeting: an answer to a question has the shopper's own topic.
          const chips = turn.starters?.length ? choicesPart(turn.starters) : null;
          if (chips) await emit({ type: 'part', part: chips });
        }
        return { state: {} };
      }

      if (match) return run(turn, match.action, extractParameters(message, match.action.parameters), emit, p);

      // Elsewhere about the product just shown, else the shopper is asked which (page-product.ts).
      if (request.kind === 'other') {
        const inView = await answerProductInView(turn, language, emit);
        if (inView) return { state: inView.which ? { whichProduct: inView.which } : {} };
      }

      const facets = (await turn.tools.catalogFacets?.().catch(() => null)) ?? NO_FACETS;
      const constraints = readShopperConstraints(message, facets);
      const knowledge = await turn.tools.searchKnowledge(message, 3);
      const best = pickSection(knowledge, language);
      // A store question ("can I return worn shoes?") is answered from the knowledge even when it names a product;
      // a product request ("waterproof running shoes under 150") from the catalog, saying so when nothing fits.
      // A plain request ("do you have phones?") goes to the catalog first, even where the knowledge mentions phones.
      if (best && !constraints.plainly && (has(words, 'store') || !constraints.asksForProducts)) {
        await say(sectionAnswer(best, p, message));
        return { state: {} };
      }
      if (await answerProductRequest(turn, constraints, language, emit, !constraints.asksForProducts, !!best))
        return { state: {} };
      if (best) {
        await say(sectionAnswer(best, p, message));
        return { state: {} };
      }
      await say(`${p.sorryNothing} ${capabilities(turn, p, canCancelOrders(turn, cancelAction), language)}`);
      return { state: {}, unanswered: true };
    },
  };
}

/**
 * The shopper asked for a person (issue 21). Where the widget has someone to hand to, the service hands the
 * conversation over and the answer is its promise, word for word: nothing else is said or asked, since the next
 * message goes to a person. Otherwise, or when the handoff did not go through, the answer is how to reach the store's
 * team, from its knowledge: the contact section in the shopper's language when there is one.
 */
async function handOver(turn: EngineTurn, language: ReplyLanguage, emit: Emit): Promise<void> {
  let failed = false;
  if (turn.tools.requestHuman) {
    const outcome = await turn.tools.requestHuman().catch(() => null);
    if (outcome?.ok) {
      await streamText(outcome.text, emit);
      return;
    }
    failed = true;
  }
  const p = PHRASES[language];
  const contact = pickSection(await turn.tools.searchKnowledge(CONTACT_QUERY, 4), language);
  const intro = p.personNoHandoff(failed);
  await streamText(
    contact
      ? // The contact section's lines about reaching the team (email, phone, hours), under its title.
        `${intro}\n\n${quoteSection(contact, p, CONTACT_QUERY, `**${contact.title}**`, intro.length + 2, false)}`
      : p.personNoContact(failed),
    emit,
  );
}

/** The best section, preferring one written in the answer's language among those that matched. */
function pickSection(hits: KnowledgeHit[], language: ReplyLanguage): KnowledgeHit | undefined {
  return hits.find((h) => detectLanguage(`${h.title} ${h.text}`) === language) ?? hits[0];
}

/**
 * "From our "Shipping" information:" and the passage of the section that answers `question` (knowledge-passage.ts),
 * the whole answer within KNOWLEDGE_ANSWER_MAX characters (less `reserved`, for what follows it), or the whole
 * section when the shopper asks for it ("show me the whole return policy").
 */
const sectionAnswer = (hit: KnowledgeHit, p: Phrases, question: string, reserved = 0): string =>
  quoteSection(hit, p, question, p.fromSection(hit.title), reserved);

/**
 * A heading line, the passage, and where the rest is: a link to the document the section came from, else, when the
 * passage is not all of it and `hint` is on, how to ask for the rest. A passage is the merchant's own markdown, never
 * more.
 */
function quoteSection(
  hit: KnowledgeHit,
  p: Phrases,
  question: string,
  heading: string,
  reserved: number,
  hint = true,
): string {
  const link = hit.source ? p.sectionSource(markdownLink(hit.title, hit.source)) : '';
  const footerRoom = (link || (hint ? p.wholeSectionHint(hit.title) : '')).length + 2;
  const room = KNOWLEDGE_ANSWER_MAX - reserved - heading.length - 2 - footerRoom;
  const passage = passageOf(hit, question, Math.max(room, 120), {
    whole: asksForWholeSection(question),
    wholeMaxChars: WHOLE_SECTION_MAX,
  });
  const footer = link || (passage.whole || !hint ? '' : p.wholeSectionHint(hit.title));
  return [heading, passage.text, footer].filter(Boolean).join('\n\n');
}

/** A markdown link to a knowledge document: its text escaped, the URL's spaces and brackets encoded. */
function markdownLink(text: string, url: string): string {
  const label = text.replace(/[\\[\]*_`<>]/g, (c) => `\\${c}`);
  const href = url.replace(
    /[\s()<>]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  return `[${label}](${href})`;
}

/**
 * The reply to a question the engine asked: an order number for the order action's number, else the typed values
 * (a product's "STR-TEMPO-3" is taken whole, not as the order number "3").
 */
function answerFor(
  message: string,
  action: ActionDefinition,
  pending: NonNullable<LocalState['pending']>,
  isOrderAction: boolean,
): Record<string, ParameterValue> {
  const values = extractParameters(message, action.parameters, pending.asked);
  const orderParameter = isOrderAction ? orderNumberParameter(action) : undefined;
  if (orderParameter?.name === pending.asked) {
    const chosen = pending.choices ? pickChoice(message, pending.choices) : undefined;
    const number = chosen ?? answeredOrderNumber(message);
    if (number) values[orderParameter.name] = number;
    else delete values[orderParameter.name];
  }
  return values;
}

/** Which of the offered numbers the reply names ("the second", "5678", "die erste"). */
function pickChoice(message: string, choices: string[]): string | undefined {
  const named = choices.find((c) => message.toLowerCase().includes(c.toLowerCase()));
  if (named) return named;
  if (/\b(?:first|erste[nmrs]?)\b/i.test(message)) return choices[0];
  if (/\b(?:second|zweite[nmrs]?)\b/i.test(message)) return choices[1];
  if (/\b(?:last|letzte[nmrs]?)\b/i.test(message)) return choices.at(-1);
  return undefined;
}

/** Calls the action when every parameter it needs is known, else asks for the first missing one. */
async function run(
  turn: EngineTurn,
  action: ActionDefinition,
  values: Record<string, ParameterValue>,
  emit: Emit,
  p: Phrases,
): Promise<{ state: LocalState }> {
  // A guest looking an order up proves it is theirs with its email (issue 31 item 7), asked after everything the
  // action requires; a verified customer needs none.
  const guestEmail =
    !turn.verifiedCustomer && action === orderStatusAction(turn.actions)
      ? guestEmailParameter(action)
      : undefined;
  const missing = missingParameters(action, values);
  if (guestEmail && values[guestEmail.name] === undefined) missing.push(guestEmail);
  if (missing.length > 0) {
    const parameter = missing[0];
    const question =
      parameter === guestEmail
        ? p.orderEmail
        : parameter === orderNumberParameter(action) && !parameter.description
          ? p.whichOrder
          : questionFor(parameter, p);
    await streamText(question, emit);
    return { state: { pending: { action: action.name, values, asked: parameter.name } } };
  }
  // An action that confirms is not called now: the service shows the shopper its `confirm` part, the question.
  if (needsConfirmation(action)) {
    const result = await turn.tools.callAction(action, values);
    if (isAwaitingConfirmation(result)) return { state: {} };
    await present(action, result, emit, p);
    return { state: {} };
  }
  await emit({ type: 'action.started', name: action.name });
  const result = await turn.tools.callAction(action, values);
  await emit({ type: 'action.finished', name: action.name, ok: result.ok });
  await present(action, result, emit, p);
  return { state: {} };
}

/** The question for a missing parameter, from its description when it has one, else from its name. */
function questionFor(parameter: ActionDefinition['parameters'][number], p: Phrases): string {
  const what =
    parameter.description?.trim().replace(/[.:]+$/, '') ||
    cueWords(parameter)
      .join(' ')
      .replace(/\bid\b/, 'ID');
  const lower = what.charAt(0).toLowerCase() + what.slice(1);
  return parameter.type === 'boolean' ? p.askYesNo(lower) : p.askValue(lower);
}

/** What the shopper reads of an action's result: its text, or a line and its card; a failure says so. */
async function present(
  action: ActionDefinition,
  result: Exclude<ActionResult, AwaitingConfirmation>,
  emit: Emit,
  p: Phrases,
): Promise<void> {
  if (!result.ok) {
    await streamText(
      result.error.code === IDENTITY_REQUIRED ? p.signInFirst(action.name) : p.actionFailed(action.name),
      emit,
    );
    return;
  }
  if (!result.part) {
    await streamText(p.noCard(action.name), emit);
  } else if (result.part.type === 'text') {
    await streamText(result.part.text, emit);
  } else {
    const intro =
      result.part.type === 'order-card'
        ? p.hereIsOrder(result.part.card.order_id_value)
        : result.part.type === 'products'
          ? p.hereIsWhatIFound
          : p.hereIsProduct;
    await streamText(intro, emit);
    await emit({ type: 'part', part: result.part });
  }
}

function shopperName(turn: EngineTurn): string | undefined {
  for (const key of NAME_KEYS) {
    const value = turn.userData?.[key];
    if (typeof value === 'string' && value.trim()) return value.trim().split(/\s+/)[0].slice(0, 60);
  }
  return undefined;
}

/**
 * What the engine can do: the store's action names, and cancelling orders. The names are the merchant's words, in
 * the merchant's language: a German answer lists only those written in German ("Store hours" would sit oddly in a
 * German sentence), and names looking orders up in its own words.
 */
function capabilities(turn: EngineTurn, p: Phrases, canCancel: boolean, language: ReplyLanguage): string {
  const statusAction = orderStatusAction(turn.actions);
  const names = turn.actions
    .filter((a) => a.enabled && a !== statusAction)
    .filter((a) => language === 'en' || detectLanguage(a.name) === 'de')
    .map((a) => (language === 'en' ? a.name.toLowerCase() : a.name));
  return p.canHelpWith([
    ...(statusAction ? [p.orderStatus] : []),
    ...names,
    ...(canCancel ? [p.cancellingOrders] : []),
  ]);
}
