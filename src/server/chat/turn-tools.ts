import { type CallActionOptions, callAction } from '../actions/call-action';
import { catalogFacets } from '../catalog/search/catalog-facets';
import { findProduct } from '../catalog/search/find-product';
import { searchProductsScored, toProductHit } from '../catalog/search/search-products';
import type { WidgetSettings } from '../config/service-config';
import { MODE_CHANGED } from '../conversations/turn-calls';
import type { ActionResult, EngineTools } from '../core/engine';
import { guardMode, modeRefusal } from '../guards/mode-guard';
import { guardIdentity } from '../guards/require-identity';
import type { HandoffStore } from '../handoff/handoff-store';
import type { KnowledgeService } from '../knowledge/knowledge-service';
import type { Db } from '../platform/database/db';
import type { VerifiedUser } from '../platform/identity-token';
import type { Logger } from '../platform/logger';
import { actionCalls } from '../platform/metrics';
import { newRequestId } from '../platform/outbound-signature';
import type { Previews } from '../settings/preview-registry';
import { orderCancellationTool } from '../webhooks/order-cancellation-tool';
import type { WebhookCallStore } from '../webhooks/webhook-call-store';
import type { TurnDeps } from './run-turn';

export interface TurnToolsDeps {
  db: Db;
  logger: Logger;
  /** A live widget's settings, or a preview's draft (ids `<widget>~<preview>`). */
  widgetOf(widgetId: string): WidgetSettings | undefined;
  previews: Pick<Previews, 'baseOf' | 'signingSecretOf'>;
  knowledge: Pick<KnowledgeService, 'search' | 'searchDraft'>;
  handoff: Pick<HandoffStore, 'modeOf'>;
  webhookCalls: WebhookCallStore;
  actionOptions: Omit<CallActionOptions, 'signal'>;
}

/**
 * The verified customer the service vouches for in a turn: the one stored with the conversation, passed on only while
 * the widget still has `identity`. Once the merchant turns identity off, nothing checks who continues the
 * conversation, so nothing may vouch for them either: integrators hear no user, and the engine treats them as a guest.
 */
export const vouchedUser = (
  widget: WidgetSettings | undefined,
  storedUser: VerifiedUser | null,
): VerifiedUser | null => (widget?.identity ? storedUser : null);

/**
 * The tools a turn hands its engine, in the order a call passes through them: the identity guard outermost, then the
 * turn's `wrap` (confirmations), then the mode guard, then the integrator. Each call is journaled when the turn could
 * be taken over by another instance (issue 23).
 */
export function turnTools(deps: TurnToolsDeps): TurnDeps['toolsFor'] {
  const { db, logger, widgetOf, previews, knowledge, handoff, webhookCalls, actionOptions } = deps;
  return (
    widgetId,
    conversationId,
    userData,
    storedUser = null,
    wrap = (tools) => tools,
    journal,
    signal,
    language,
  ) => {
    const widget = widgetOf(widgetId);
    const user = vouchedUser(widget, storedUser);
    // A preview conversation (issue 22) runs its draft's settings on the live widget's catalog and documents, and
    // tells every integrator it calls that this is a preview.
    const baseId = previews.baseOf(widgetId);
    const preview = baseId !== undefined;
    const storeId = baseId ?? widgetId;
    const callOptions = {
      ...actionOptions,
      ...(preview && { signingSecretFor: () => previews.signingSecretOf(widgetId) }),
      signal,
    };
    const callOne = async (
      action: Parameters<EngineTools['callAction']>[0],
      params: Parameters<EngineTools['callAction']>[1],
      requestId: string,
    ): Promise<ActionResult> => {
      const outcome = await callAction(
        action,
        params,
        { widgetId: storeId, conversationId, requestId, user, preview, language },
        callOptions,
      );
      actionCalls.inc({ outcome: outcome.ok ? 'ok' : outcome.error.code });
      if (!outcome.ok)
        logger.warn('custom action failed', {
          widgetId,
          action: action.name,
          requestId,
          ...outcome.error,
        });
      else logger.debug('custom action called', { widgetId, action: action.name, requestId });
      return outcome.ok
        ? { ok: true, aiText: outcome.aiText, part: outcome.part }
        : { ok: false, error: outcome.error };
    };
    // Innermost, right at the integrator: every call re-reads the conversation's mode (issue 21), whichever path led to
    // it (an engine's call, a confirmed proposal's).
    return guardIdentity(
      widget,
      user,
      wrap(
        guardMode(
          handoff.modeOf,
          conversationId,
          {
            async callAction(action, params) {
              // Journaled in a turn that another instance could take over (issue 23): a completed call's outcome is
              // replayed there, an unfinished one made again with its request id. The journal's entry reads the mode
              // too (one statement, issue 32).
              const invoke = (requestId: string) => callOne(action, params, requestId);
              if (!journal) return invoke(newRequestId());
              const outcome = await journal.call(`action:${action.name}`, params, invoke, newRequestId, {
                withAssistant: conversationId,
              });
              return outcome === MODE_CHANGED ? modeRefusal : outcome;
            },
            async searchProducts(query) {
              const found = await searchProductsScored(db, storeId, query);
              return found.flatMap((p) => toProductHit(p) ?? []);
            },
            catalogFacets: () => catalogFacets(db, storeId),
            searchKnowledge: (query, limit) =>
              preview && widget
                ? knowledge.searchDraft(storeId, widget, query, limit)
                : knowledge.search(widgetId, query, limit),
            findProduct: (ref) => findProduct(db, storeId, ref),
            cancelOrder: orderCancellationTool(
              widget,
              { widgetId: storeId, conversationId, preview, language },
              { calls: webhookCalls, logger, options: callOptions, journal },
              userData,
              user,
            ),
          },
          { checksItself: journal !== undefined },
        ),
      ),
    );
  };
}
