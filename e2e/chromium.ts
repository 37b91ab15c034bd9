/**
 * Debian's Chromium, as this project drives it (browser downloads are not used). The benchmarks measure what a rider
 * gets, so they launch the full browser (`chromiumLaunchOptions`, the `chromium` package); the tests and the budget's
 * count launch Debian's `chromium-headless-shell` (`testBrowserLaunchOptions`), the same engine without the browser's
 * own windows and compositing: the e2e suite's CPU time on two cores is what bounds it, and the shell took 14–25% off
 * a run of four specs (ADR 0061, bench/README.md "The test suite's time"). scripts/ensure-chromium.sh installs both.
 */
const args = [
  // Headless as root, and no background traffic: the machine has no network but the package registries.
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const chromiumLaunchOptions = { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args };

export const testBrowserLaunchOptions = {
  executablePath: process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell',
  args,
};
