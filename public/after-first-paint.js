// A page rendered on the server is painted before the app's scripts are fetched (docs/decisions/0063): the server
// names them in <meta name="app-scripts"> (src/shared/page-data.ts, `appScriptsMetaName`), the entry first. Once the
// browser reports the page's first contentful paint (or after a second, from a browser that reports none, such as a
// tab in the background), they are fetched side by side and the entry run, which hydrates the page.
const [entry, ...preloads] = (document.querySelector('meta[name="app-scripts"]')?.getAttribute('content') ?? '')
  .split(' ')
  .filter(Boolean);
let started = false;
function start() {
  if (started) return;
  started = true;
  for (const href of preloads) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  if (entry) import(entry);
}
try {
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
} catch {
  start();
}
setTimeout(start, 1000);
