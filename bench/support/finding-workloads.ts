// What a rider asks to find products, shared by `npm run bench:finding` (10,000 products) and `npm run bench:size`
// (the whole big shop): home's first page, searches with and without a wrong letter, each category's first page, with
// the targets of docs/product.md §22 and issue 39 (p95 at 50 connections, ms).
export const findingWorkloads = {
  home: [''],
  search: ['q=bridle', 'q=brdle', 'q=saumur%20saddle', 'q=elan%20boots', 'q=grand%20prix', 'q=numnha', 'q=navy'],
  category: ['category=bridles', 'category=saddles', 'category=boots', 'category=jackets', 'category=saddle-pads'],
} as const;

export type FindingWorkload = keyof typeof findingWorkloads;

/** Each workload as a table row says it. */
export const findingLabels: Record<FindingWorkload, string> = {
  home: "home's first page",
  search: 'a search',
  category: "a category's first page",
};

export const findingTargets: Record<FindingWorkload, number> = { home: 30, search: 50, category: 30 };

/** The connections a workload's requests share (issue 39: 50). */
export const findingConnections = Number(process.env.BENCH_CONNECTIONS ?? 50);

/** The stated load: requests a second shared by the connections (bench/README.md, "Finding"). */
export const findingRate = Number(process.env.BENCH_RATE ?? 100);

/** The addresses of a workload's requests on the server at `url`, asked in turn. */
export function findingUrls(url: string, workload: FindingWorkload): string[] {
  return findingWorkloads[workload].map((query) => `${url}/api/products${query ? `?${query}` : ''}`);
}
