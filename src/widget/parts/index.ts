// The message parts' components and their stylesheet (concatenated to styles.css where the shadow root adopts it).
import partsCss from './parts.css?inline';

export type { LinkOptions } from './link';
export { Markdown } from './markdown';
export { parseMarkdown } from './markdown-parse';
export { OrderCard } from './order-card';
export { PartView, type PartViewProps } from './part-view';
export { ProductCard, ProductList } from './product-cards';
export { safeHref } from './safe-link';
export { partsCss };
