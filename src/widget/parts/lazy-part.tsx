import { Component, type ComponentType, h } from 'preact';
import { adoptStyles } from '../adopt-styles';
import { logError } from '../log';
import { holdPlace } from '../message-list';

/** The props of a component type. */
type PropsOf<C> = C extends ComponentType<infer P extends object> ? P : never;

/** Every lazy part's loader, for {@link prefetchParts}. */
const loaders = new Set<() => Promise<void>>();

/** The stylesheets already given to each shadow root (a second widget after `destroy()` has a new root). */
const styled = new WeakMap<Node, Set<string>>();

/** A part shown while its code loads: an empty box, which the part's own box replaces. */
const Empty = () => <div aria-busy="true" />;

/**
 * A part whose code is a chunk of its own, fetched the first time a message shows one (or earlier, by
 * {@link prefetchParts}): the chat opens without it (issue 10, "Bytes": ≤ 20 KB brotli until the chat is open).
 * Until the chunk is there, `placeholder` renders; when it arrives, the part's stylesheet joins the shadow root and the
 * part renders, and what the shopper reads stays where it is on screen ({@link holdPlace}). A chunk that fails to
 * load leaves the placeholder and one `[service]` error; the next render or prefetch tries again.
 *
 * @example
 * // part-view.tsx: the module exports `OrderCardPart` (and `css`); it becomes a chunk of its own.
 * 'order-card': lazyPart(() => import('./order-card'), 'OrderCardPart'),
 */
export function lazyPart<M extends { css?: string }, K extends keyof M, P extends object = PropsOf<M[K]>>(
  load: () => Promise<M>,
  name: K,
  placeholder: ComponentType<P> = Empty,
): ComponentType<P> {
  let loaded: { View: ComponentType<P>; css?: string } | undefined;
  let loading: Promise<void> | undefined;
  const waiting = new Set<Component>();
  const start = (): Promise<void> =>
    (loading ??= load().then(
      (module) => {
        loaded = { View: module[name] as ComponentType<P>, css: module.css };
        for (const part of waiting) part.forceUpdate();
      },
      (error: unknown) => {
        loading = undefined;
        logError('could not load a part of a message', error);
      },
    ));
  loaders.add(start);

  return class LazyPart extends Component<P> {
    /** Whether the placeholder is what is on screen now. */
    isWaiting = false;

    override render(props: P) {
      if (loaded) return h(loaded.View, props);
      waiting.add(this);
      void start();
      return h(placeholder, props);
    }

    // The placeholder is about to give way to the part: remember where the shopper reads.
    override getSnapshotBeforeUpdate() {
      return this.isWaiting && loaded ? holdPlace(this.base as Element | undefined) : undefined;
    }

    override componentDidMount() {
      this.settle();
    }

    override componentDidUpdate(_props: P, _state: unknown, restore?: () => void) {
      this.settle();
      restore?.();
    }

    override componentWillUnmount() {
      waiting.delete(this);
    }

    /** After each render: the part's stylesheet in the root it renders in, before the browser paints it. */
    settle(): void {
      this.isWaiting = !loaded;
      if (!loaded) return;
      waiting.delete(this);
      const root = this.base?.getRootNode();
      if (!loaded.css || !(root instanceof ShadowRoot)) return;
      const sheets = styled.get(root) ?? new Set();
      styled.set(root, sheets);
      if (sheets.has(loaded.css)) return;
      sheets.add(loaded.css);
      adoptStyles(root, loaded.css);
    }
  };
}

/**
 * Fetches every lazy part's chunk that is not there yet. The widget calls it at idle once the chat is open, so a card
 * in the next answer renders at once. Never rejects.
 */
export async function prefetchParts(): Promise<void> {
  // One chunk after the other: their imports started at once compile and run them all in one task (30 ms and more at
  // 4x CPU, issue 36), one at a time each in a task of its own.
  for (const start of [...loaders]) await start();
}
