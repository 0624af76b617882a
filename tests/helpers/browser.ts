import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium (apt-get install chromium), driven through playwright-core: no browser
 * download. CHROMIUM_PATH points elsewhere. `media` gives calls a fake camera and microphone,
 * granted without a permission prompt.
 */
export function launchBrowser(opts: { media?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(opts.media ? ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'] : []),
    ],
  });
}
