import { createHash } from 'node:crypto';
import { KNOWLEDGE_SECTIONS_MAX, type WidgetSettings } from '../config/service-config';
import type { KnowledgeHit } from '../core/engine';
import type { Logger } from '../platform/logger';
import { fetchKnowledgeDocument, type KnowledgeFetchOptions } from './knowledge-document';
import { buildKnowledgeIndex, type KnowledgeIndex, type KnowledgeSection } from './knowledge-index';

// Each widget's store knowledge (DESIGN "Store knowledge"): the sections of its config (`knowledge`), then those of
// its `knowledgeUrls` documents, fetched at start and hourly, ranked by one index per widget that is built again only
// when a document changes.
//
// The fetched documents are kept in this process's memory, per instance: every instance fetches them itself, and a
// restart fetches them again (a failed first fetch leaves that document out until the next refresh). Another issue
// moves feed state into the database; knowledge can follow it there.

/** How often `knowledgeUrls` documents are fetched again. */
export const KNOWLEDGE_REFRESH_MS = 60 * 60_000;

/** One `knowledgeUrls` document as the widget uses it now. */
export interface KnowledgeDocumentReport {
  url: string;
  /** Whether the last fetch worked. When it did not, the last good copy (if any) is still used. */
  ok: boolean;
  /** Why the last fetch failed. */
  error?: string;
  /** When the copy in use was fetched (ISO time); absent when none ever was. */
  fetchedAt?: string;
  /** Sections of the copy in use that the widget ranks. */
  sections: number;
  /** Sections of the copy in use left out: the widget's 500 were reached before them. */
  dropped: number;
}

export interface KnowledgeReport {
  widgetId: string;
  at: string;
  /** All sections the widget ranks: its config's, then its documents'. */
  sections: number;
  documents: KnowledgeDocumentReport[];
}

export interface KnowledgeService {
  /** The widget's sections that best answer `query`, best first (at most `limit`, default 3); none for an unknown widget. */
  search(widgetId: string, query: string, limit?: number): Promise<KnowledgeHit[]>;
  /** Fetches the widget's documents now (null: it has none); the same run when one is already under way. */
  refreshNow(widgetId: string): Promise<KnowledgeReport | null>;
  /** What the last refresh of the widget's documents found. */
  lastReport(widgetId: string): KnowledgeReport | undefined;
  /** Issue 22: the widget's new settings (its sections and URLs); a changed URL list is fetched at once. */
  update(widget: WidgetSettings): void;
  /**
   * Issue 22, the chat preview: searches a draft's knowledge: its own sections, then the live widget's copies of the
   * draft's URLs. A URL only the draft lists is not fetched for a preview (it is once the draft is saved).
   */
  searchDraft(baseId: string, draft: WidgetSettings, query: string, limit?: number): Promise<KnowledgeHit[]>;
  stop(): Promise<void>;
}

export interface KnowledgeServiceOptions extends KnowledgeFetchOptions {
  /** Default {@link KNOWLEDGE_REFRESH_MS}. */
  refreshMs?: number;
}

interface FetchedCopy {
  sections: KnowledgeSection[];
  fetchedAt: string;
  /** SHA-256 of the body: an unchanged document keeps its sections, and the index is not built again. */
  digest: string;
}

interface WidgetKnowledge {
  widget: WidgetSettings;
  configured: KnowledgeSection[];
  copies: Map<string, FetchedCopy>;
  errors: Map<string, string>;
  /** Sections left out per document, by the last assembly. */
  dropped: Map<string, number>;
  sections: KnowledgeSection[];
  /** The index of `sections`, built in the background as soon as they change (a search waits for it). */
  index: Promise<KnowledgeIndex> | undefined;
}

/**
 * Indexes every widget's configured knowledge, and fetches its `knowledgeUrls` now and then every `refreshMs`, in the
 * background: the service answers at once, and a document's sections join when its first fetch lands. A failed fetch
 * is logged and the last good copy stays. The widget's sections are its config's first, then each document's in the
 * order of `knowledgeUrls`, at most 500 in all: a document's sections past that are dropped with a warning naming it.
 *
 * @example
 * const knowledge = startKnowledge(config.widgets, { allowHttpLoopback: false }, logger);
 * knowledge.search('demo', 'how long does shipping take'); // → [{ title: 'Shipping', … }]
 * await knowledge.stop();
 */
export function startKnowledge(
  widgets: readonly WidgetSettings[],
  options: KnowledgeServiceOptions,
  logger: Logger,
): KnowledgeService {
  const state = new Map<string, WidgetKnowledge>();
  for (const widget of widgets) {
    // The config schema (config.ts) already held these to 500 sections of 20,000 characters: a start error.
    const configured = widget.knowledge.map((s) => ({ title: s.title, text: s.text, source: null }));
    state.set(widget.id, {
      widget,
      configured,
      copies: new Map(),
      errors: new Map(),
      dropped: new Map(),
      sections: configured,
      index: configured.length > 0 ? buildKnowledgeIndex(configured) : undefined,
    });
  }
  const reports = new Map<string, KnowledgeReport>();
  // One index per draft object: a preview keeps the same object until its draft changes.
  const draftIndexes = new WeakMap<WidgetSettings, Promise<KnowledgeIndex> | undefined>();
  const running = new Map<string, Promise<KnowledgeReport>>();
  const timers: NodeJS.Timeout[] = [];
  const stopping = new AbortController();

  /** The widget's sections from its config and the copies in use, within the limit; warns per document cut. */
  const assemble = (entry: WidgetKnowledge) => {
    const sections = [...entry.configured];
    entry.dropped.clear();
    for (const url of entry.widget.knowledgeUrls) {
      const copy = entry.copies.get(url);
      if (!copy) continue;
      const room = Math.max(0, KNOWLEDGE_SECTIONS_MAX - sections.length);
      sections.push(...copy.sections.slice(0, room));
      const dropped = copy.sections.length - Math.min(room, copy.sections.length);
      entry.dropped.set(url, dropped);
      if (dropped > 0) {
        logger.warn('knowledge document over the section limit: its last sections are left out', {
          widgetId: entry.widget.id,
          url,
          sections: copy.sections.length,
          dropped,
          limit: KNOWLEDGE_SECTIONS_MAX,
        });
      }
    }
    entry.sections = sections;
    entry.index = buildKnowledgeIndex(sections);
  };

  const reportOf = (entry: WidgetKnowledge): KnowledgeReport => ({
    widgetId: entry.widget.id,
    at: new Date().toISOString(),
    sections: entry.sections.length,
    documents: entry.widget.knowledgeUrls.map((url) => {
      const copy = entry.copies.get(url);
      const error = entry.errors.get(url);
      const dropped = entry.dropped.get(url) ?? 0;
      return {
        url,
        ok: error === undefined,
        ...(error === undefined ? {} : { error }),
        ...(copy ? { fetchedAt: copy.fetchedAt } : {}),
        sections: (copy?.sections.length ?? 0) - dropped,
        dropped,
      };
    }),
  });

  const refresh = async (entry: WidgetKnowledge): Promise<KnowledgeReport> => {
    let changed = false;
    // One document at a time: a widget has a few, and a slow one then holds no more than one connection.
    for (const url of entry.widget.knowledgeUrls) {
      const fetched = await fetchKnowledgeDocument(url, { ...options, signal: stopping.signal });
      if (stopping.signal.aborted) break;
      if (!fetched.ok) {
        entry.errors.set(url, fetched.error);
        logger.warn('knowledge document could not be fetched', {
          widgetId: entry.widget.id,
          url,
          error: fetched.error,
          kept: entry.copies.has(url) ? 'the last good copy' : 'nothing (none fetched yet)',
        });
        continue;
      }
      entry.errors.delete(url);
      const digest = createHash('sha256').update(fetched.value.body).digest('hex');
      const previous = entry.copies.get(url);
      const fetchedAt = new Date().toISOString();
      if (previous?.digest === digest) {
        previous.fetchedAt = fetchedAt;
        continue;
      }
      entry.copies.set(url, { sections: fetched.value.sections, fetchedAt, digest });
      changed = true;
    }
    if (changed) assemble(entry);
    const report = reportOf(entry);
    logger.info('knowledge refresh', {
      widgetId: entry.widget.id,
      sections: report.sections,
      documents: report.documents.map((d) => `${d.url}: ${d.ok ? `${d.sections} sections` : d.error}`),
    });
    reports.set(entry.widget.id, report);
    return report;
  };

  const run = (entry: WidgetKnowledge): Promise<KnowledgeReport> => {
    const current = running.get(entry.widget.id);
    if (current) return current;
    const next = refresh(entry)
      .catch((error: unknown) => {
        // fetchKnowledgeDocument never throws; anything here is a bug, logged rather than left unhandled.
        logger.error('knowledge refresh failed', { widgetId: entry.widget.id, error: String(error) });
        return reportOf(entry);
      })
      .finally(() => running.delete(entry.widget.id));
    running.set(entry.widget.id, next);
    return next;
  };

  for (const entry of state.values()) {
    if (entry.widget.knowledgeUrls.length > 0) void run(entry);
    // Every widget has its timer: settings saved later (issue 22) may give one `knowledgeUrls`.
    const timer = setInterval(() => {
      if (entry.widget.knowledgeUrls.length > 0) void run(entry);
    }, options.refreshMs ?? KNOWLEDGE_REFRESH_MS);
    timer.unref();
    timers.push(timer);
  }

  return {
    async search(widgetId, query, limit) {
      const entry = state.get(widgetId);
      if (!entry?.index) return [];
      // Indexing 500 long sections takes about a second (`npm run bench`): it runs in slices in the background from
      // the moment the sections change, and a question asked meanwhile waits for it rather than blocking the service.
      return (await entry.index).search(query, limit);
    },
    refreshNow: async (widgetId) => {
      const entry = state.get(widgetId);
      return entry && entry.widget.knowledgeUrls.length > 0 ? run(entry) : null;
    },
    lastReport: (widgetId) => reports.get(widgetId),
    async searchDraft(baseId, draft, query, limit) {
      if (!draftIndexes.has(draft)) {
        const copies = state.get(baseId)?.copies;
        const sections: KnowledgeSection[] = draft.knowledge.map((s) => ({
          title: s.title,
          text: s.text,
          source: null,
        }));
        for (const url of draft.knowledgeUrls) sections.push(...(copies?.get(url)?.sections ?? []));
        const capped = sections.slice(0, KNOWLEDGE_SECTIONS_MAX);
        draftIndexes.set(draft, capped.length > 0 ? buildKnowledgeIndex(capped) : undefined);
      }
      const index = draftIndexes.get(draft);
      return index ? (await index).search(query, limit) : [];
    },
    update(widget) {
      const entry = state.get(widget.id);
      if (!entry) return;
      const added = widget.knowledgeUrls.some((url) => !entry.widget.knowledgeUrls.includes(url));
      entry.widget = widget;
      entry.configured = widget.knowledge.map((s) => ({ title: s.title, text: s.text, source: null }));
      // A document no longer listed leaves with its sections; one still listed keeps its copy.
      for (const url of [...entry.copies.keys()])
        if (!widget.knowledgeUrls.includes(url)) entry.copies.delete(url);
      for (const url of [...entry.errors.keys()])
        if (!widget.knowledgeUrls.includes(url)) entry.errors.delete(url);
      assemble(entry);
      if (added) void run(entry);
    },
    stop: async () => {
      for (const timer of timers) clearInterval(timer);
      stopping.abort();
      await Promise.allSettled([...running.values()]);
    },
  };
}
