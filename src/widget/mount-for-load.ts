// `load()`'s way to the widget (src/index.ts). Imported there instead of ./mount itself: the mount chunk then exports
// only what its own chunks use, not also `mount` under a name of its own for the npm entry (47 B brotli until the chat
// opens). A page that imports the npm entry unbundled fetches this one-line chunk before the mount chunk.
export { mount } from './mount';
