import type { ServiceEventType } from '../../protocol/event-hooks';

/**
 * Issue 33: records an event for the widget's `eventHooks` (runtime.ts `events.emit`). Never throws: a failure is
 * logged, and what happened stands.
 */
export type EmitEvent = (
  widgetId: string,
  type: ServiceEventType,
  conversationId: string,
  data: Record<string, unknown>,
) => Promise<void>;
