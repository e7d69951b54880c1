// The loader, added after the page's `load` event and the paint after it: the README's recommended snippet (issue
// 36), so nothing of the widget is in the page's critical path (Lighthouse's simulated LCP). The demo's own switches:
//   ?widget=none   no widget at all: the page as it is without it (scripts/bench-lighthouse.mjs compares the two)
//   ?loaders=N     add N loaders instead of one (a tag manager adding it again); at most 3
(() => {
  const query = new URLSearchParams(location.search);
  if (query.get('widget') === 'none') return;
  const copies = Math.min(Math.max(Number(query.get('loaders') ?? '1') || 1, 1), 3);
  // The page's nonce, read now: `currentScript` is null in the load listener. The loader passes it on to the widget.
  const nonce = document.currentScript?.nonce ?? '';
  const add = () => {
    for (let i = 0; i < copies; i++) {
      const s = document.createElement('script');
      s.async = true;
      s.src = '%SERVICE_URL%/sdk/loader.js';
      s.dataset.widgetId = 'demo';
      s.nonce = nonce;
      document.head.append(s);
    }
  };
  // Half a second after `load`: a fast page is often painted only after its `load` event, and a request that starts
  // before that paint is on screen counts in Lighthouse's simulated FCP and LCP. An idle callback or the next
  // animation frames still come before it (docs/performance.md, "Lighthouse (issue 36)"); the loader then waits for
  // an idle moment itself before it adds the widget.
  const later = () => setTimeout(add, 500);
  document.readyState === 'complete' ? later() : addEventListener('load', later);
})();
