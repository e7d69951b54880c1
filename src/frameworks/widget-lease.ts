// The one widget that framework components share, held by reference count (issue 36). React's Strict Mode runs an
// effect, its cleanup and the effect again before `load()` has settled: a cleanup written as
// `load(settings).then((api) => api.destroy())` then destroys the very widget the second run gets back. Here a release
// only drops a count; the widget is destroyed when the count is zero once it has loaded (at once if it has), so a
// release and a new hold in the same commit keep the widget, and an unmount on one route destroys it before the mount
// on the next loads afresh.
import { load, type ServiceApi, type ServiceSettings } from '../index';

/** One component's (or one app's) hold on the widget. */
export interface WidgetLease {
  /** The widget's API once it has loaded; undefined when it could not load or the lease was released first. */
  readonly ready: Promise<ServiceApi | undefined>;
  /** Gives the hold up; the widget is destroyed when no lease holds it. A second call does nothing. */
  release(): void;
}

interface Holding {
  settings: ServiceSettings;
  loading: Promise<ServiceApi | undefined>;
  api?: ServiceApi;
  holders: number;
}

/** The widget the leases hold, from the first hold until it is destroyed. */
let current: Holding | undefined;
const listeners = new Set<() => void>();

/** Calls `listener` whenever a held widget has been destroyed; returns the unsubscribe function. */
export function onWidgetDestroyed(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Holds the widget, loading it with `settings` if no lease holds one. A hold while another lease holds it gets the
 * same widget (other settings get `load()`'s one warning). Never throws or rejects: `load()`'s failures are already
 * one `[service]` console.error of the widget's.
 */
export function acquireWidget(settings: ServiceSettings): WidgetLease {
  // Destroyed by the page itself (`window.Service.destroy()`): that one is gone, the next hold loads afresh.
  if (current?.api && window.Service !== current.api) current = undefined;
  let holding = current;
  if (!holding) holding = current = hold(settings, Promise.resolve());
  else if (holding.holders === 0 && !sameSettings(holding.settings, settings)) {
    // Released but still loading, and wanted now with other settings (another route's): that one is destroyed once
    // it has loaded (its own `then` runs first), and only then can `load()` mount another.
    const previous = holding.loading;
    current = undefined;
    holding = current = hold(settings, previous);
  } else if (holding.holders > 0 && holding.settings !== settings) {
    const shared = holding;
    // Only for `load()`'s warning when the settings differ: the widget is loaded, so this mounts nothing.
    void shared.loading.then(() => {
      if (current === shared && shared.holders > 0) load(settings).catch(() => undefined);
    });
  }
  holding.holders += 1;
  const held = holding;
  let isReleased = false;
  return {
    ready: held.loading.then((api) => (isReleased ? undefined : api)),
    release: () => {
      if (isReleased) return;
      isReleased = true;
      held.holders -= 1;
      settle(held);
    },
  };
}

/** Starts loading once `before` (the previous widget's end) has settled. */
function hold(settings: ServiceSettings, before: Promise<unknown>): Holding {
  const holding: Holding = { settings, holders: 0, loading: Promise.resolve(undefined) };
  holding.loading = before.then(() =>
    load(settings).then(
      (api) => {
        holding.api = api;
        settle(holding);
        return holding.api;
      },
      () => {
        if (current === holding) current = undefined;
        return undefined;
      },
    ),
  );
  return holding;
}

/** Destroys the widget of `holding` if it has loaded and nobody holds it any more. */
function settle(holding: Holding): void {
  if (holding.holders > 0 || !holding.api) return;
  if (current === holding) current = undefined;
  const { api } = holding;
  holding.api = undefined;
  api.destroy();
  for (const listener of listeners) listener();
}

/** Settings that differ only by being another object (a component's props on each render) are the same. */
function sameSettings(a: ServiceSettings, b: ServiceSettings): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
