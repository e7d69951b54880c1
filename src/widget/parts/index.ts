// What the widget's own code takes from the message parts: the registry and the parts' rules that stay with the
// widget's stylesheet (concatenated to styles.css where the shadow root adopts it). Each part's component and CSS are
// lazy chunks (part-view.tsx): re-exporting them here would pull them back into the widget's first chunk.
import partsCss from './parts.css?inline';

export { prefetchParts } from './lazy-part';
export type { LinkOptions } from './link';
export { type PartProps, PartView, type PartViewProps } from './part-view';
export { partsCss };
