import { conversations } from './001-conversations';
import { engineState } from './002-engine-state';
import { catalog } from './003-catalog';
import { catalogSearchColumns } from './004-catalog-search-columns';
import { tasks } from './005-tasks';
import { webhookCalls } from './006-webhook-calls';
import { catalogStatistics } from './007-catalog-statistics';
import { webhookCallOrder } from './008-webhook-call-order';
import { catalogPricePushes } from './010-catalog-price-pushes';
import { catalogFeedCost } from './011-catalog-feed-cost';
import { conversationTokens } from './012-conversation-tokens';
import { rateLimits } from './013-rate-limits';
import { verifiedUsers } from './014-verified-users';
import { proposals } from './015-proposals';
import { webhookCallRequestId } from './017-webhook-call-request-id';
import { conversationLocale } from './018-conversation-locale';
import { conversationPageContext } from './019-conversation-page-context';
import { proactiveMessages } from './020-proactive-messages';
import { handoff } from './021-handoff';
import { widgetSettings } from './022-widget-settings';
import { settingsPreviews } from './023-settings-previews';
import { feedRuns } from './024-feed-runs';
import { turnLeases } from './025-turn-leases';
import { catalogFacets } from './026-catalog-facets';
import { countRateWindows } from './027-count-rate-windows';
import { email } from './028-email';
import { eventDeliveries } from './029-event-deliveries';
import { agentPresence } from './030-agent-presence';
import { conversationRatings } from './031-conversation-ratings';
import { supportDay } from './032-support-day';
import { conversationSignals } from './033-conversation-signals';
import { conversationOutcomes } from './034-conversation-outcomes';
import { conversationRoom } from './035-conversation-room';
import { tableRules } from './036-table-rules';
import { eventLogKeys } from './037-event-log-keys';
import { deletionTriggersPath } from './038-deletion-triggers-path';
import { journalKey } from './039-journal-key';
import type { Migration } from './migration';

export type { Migration } from './migration';

/**
 * Every migration, in order. TypeScript modules rather than `.sql` files so that the server bundle carries them with
 * no file lookups at run time. To change the schema, add `NNN-name.ts` and list it here; never edit an applied one
 * (`migrate` refuses a database whose applied SQL differs).
 */
export const migrations: readonly Migration[] = [
  conversations,
  engineState,
  catalog,
  catalogSearchColumns,
  tasks,
  webhookCalls,
  catalogStatistics,
  webhookCallOrder,
  catalogPricePushes,
  catalogFeedCost,
  conversationTokens,
  rateLimits,
  verifiedUsers,
  proposals,
  webhookCallRequestId,
  conversationLocale,
  conversationPageContext,
  proactiveMessages,
  handoff,
  widgetSettings,
  settingsPreviews,
  feedRuns,
  turnLeases,
  catalogFacets,
  countRateWindows,
  email,
  eventDeliveries,
  agentPresence,
  conversationRatings,
  supportDay,
  conversationSignals,
  conversationOutcomes,
  conversationRoom,
  tableRules,
  eventLogKeys,
  deletionTriggersPath,
  journalKey,
];
