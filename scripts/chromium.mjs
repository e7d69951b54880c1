// How the benchmark scripts start Debian Chromium (the e2e harness has the same list in e2e/harness.ts): the
// background-networking flags keep it from calling Google's hosts, which this machine's closed network refuses.
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
