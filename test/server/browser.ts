/**
 * Chromium for the admin page's tests: Debian's chromium driven by puppeteer-core (which never
 * downloads one). Required, as redis-server and bubblewrap are (.ci/run installs it): without it a
 * suite fails saying how to install it, rather than pass unseen.
 */
import { existsSync, rmSync } from 'node:fs';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p));

/** A headless Chromium (the caller closes it). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const launchChromium = async (): Promise<any> => {
  if (CHROMIUM === undefined)
    throw new Error('no chromium at /usr/bin/chromium: install it (`apt-get install chromium`, as .ci/run does) to test the admin page');
  const puppeteer = (await import('puppeteer-core')).default;
  return puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
};

/** The page's uncaught errors and console errors, as they come (a test expects none). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const pageErrors = (page: any): string[] => {
  const errors: string[] = [];
  page.on('pageerror', (e: Error) => errors.push(e.message));
  page.on('console', (m: { type: () => string; text: () => string }) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
};

/** Closes what a browser test opened, the browser first, and removes its folder. */
type Closable = { readonly close: () => Promise<void> } | undefined;
export const closeAll = async (browser: Closable, server: Closable, catalog: Closable, dir: string | undefined): Promise<void> => {
  await browser?.close();
  await server?.close();
  await catalog?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
};
