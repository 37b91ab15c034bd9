/**
 * Debian's Chromium, as this project drives it (browser downloads are not used): the e2e suite and the
 * front-end benchmark launch it with the same settings.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  // Headless as root, and no background traffic: the machine has no network but the package registries.
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};
