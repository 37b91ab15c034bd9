// Injected into every measured page before its own scripts (a Playwright init script, not subject to the
// CSP): records LCP candidates, layout shifts and long tasks from the first byte on, into
// window.__piaffeMetrics for bench/support/page-metrics.ts to read.
(() => {
  const nameOf = (node) => {
    if (!node) return '(none)';
    if (!(node instanceof Element)) return node.nodeName.toLowerCase();
    const text = (node.textContent ?? '').trim().slice(0, 40);
    const name = node.getAttribute('alt') ?? node.getAttribute('class') ?? '';
    return `${node.tagName.toLowerCase()}${name ? `[${name}]` : ''}${text ? ` "${text}"` : ''}`;
  };
  const recorded = { lcp: [], shifts: [], longTasks: [] };
  window.__piaffeMetrics = recorded;
  const watch = (type, each) =>
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) each(entry);
    }).observe({ type, buffered: true });
  watch('largest-contentful-paint', (entry) =>
    recorded.lcp.push({ time: entry.startTime, size: entry.size, element: nameOf(entry.element) }),
  );
  watch('layout-shift', (entry) =>
    recorded.shifts.push({
      time: entry.startTime,
      value: entry.value,
      hadRecentInput: entry.hadRecentInput,
      sources: (entry.sources ?? []).map((source) => nameOf(source.node)),
    }),
  );
  watch('longtask', (entry) => recorded.longTasks.push({ start: entry.startTime, duration: entry.duration }));
})();
