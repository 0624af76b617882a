import { chromium, type Browser } from 'playwright-core';
import { budget } from './time';

/**
 * Debian's Chromium (apt-get install chromium), driven through playwright-core: no browser
 * download. CHROMIUM_PATH points elsewhere. `media` gives calls a fake camera and microphone,
 * granted without a permission prompt. Every page's waits (actions, navigation, `waitFor`) get
 * a budget stretched by TEST_TIME_SCALE, like the test timeouts.
 */
export async function launchBrowser(opts: { media?: boolean; args?: string[] } = {}): Promise<Browser> {
  const browser = await chromium.launch({
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
      ...(opts.args ?? []),
    ],
  });
  // browser.newPage() goes through newContext() too, so this covers both.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(budget(20_000));
    context.setDefaultNavigationTimeout(budget(30_000));
    return context;
  };
  return browser;
}
