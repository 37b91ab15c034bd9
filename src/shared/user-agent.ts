/**
 * The browser and the system a User-Agent header names, for the account page's list of log-ins
 * (docs/product.md §4). A few patterns of our own rather than a parser library: the list only needs names a
 * rider recognises, never versions, and a header is whatever its sender chose to write, so it is a hint, not a
 * fact. The order of the checks matters: Edge and Samsung Internet also say Chrome and Safari, Chrome also says
 * Safari, an iPhone says "like Mac OS X", Android and ChromeOS say Linux.
 */
export interface UserAgentNames {
  browser: string;
  system: string;
}

export const unknownBrowser = 'Unknown browser';
export const unknownSystem = 'Unknown system';

const browsers: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(OPR|OPiOS)\//, 'Opera'],
  [/\b(Chrome|HeadlessChrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const systems: ReadonlyArray<[RegExp, string]> = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

function first(table: ReadonlyArray<[RegExp, string]>, userAgent: string, otherwise: string): string {
  return table.find(([pattern]) => pattern.test(userAgent))?.[1] ?? otherwise;
}

/** The browser and system of `userAgent`; `Unknown browser` and `Unknown system` for what it does not name. */
export function describeUserAgent(userAgent: string): UserAgentNames {
  return { browser: first(browsers, userAgent, unknownBrowser), system: first(systems, userAgent, unknownSystem) };
}

/** How the account page names a log-in's device: "Safari on iPhone", or the browser alone without a system. */
export function deviceName(userAgent: string): string {
  const { browser, system } = describeUserAgent(userAgent);
  return system === unknownSystem ? browser : `${browser} on ${system}`;
}
