import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ROOT, waitFor } from './app-process';

/**
 * What the console's browser specs share (test/console*.browser.e2e-spec.ts): viewports, contexts that
 * record page errors and CSP violations, waiting for a text or a count, axe-core's findings, and the
 * invitation page. One copy here instead of one per spec.
 */

export const SCREENSHOTS = join(ROOT, 'test-artifacts/screenshots');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

const AXE = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

export interface WatchedContextOptions {
  viewport?: { width: number; height: number };
  /** Where the page errors go (the spec asserts the list is empty at the end). */
  errors: string[];
  /** An origin whose pages may read and write the clipboard (the console's copy buttons). */
  clipboardOrigin?: string;
  acceptDownloads?: boolean;
}

/**
 * A context at a viewport (a phone one is mobile and touch) that records every page error into `errors`,
 * and every violation of the page's own Content-Security-Policy into `window.__csp` (no inline code,
 * nothing from elsewhere).
 */
export async function watchedContext(browser: Browser, opts: WatchedContextOptions): Promise<BrowserContext> {
  const viewport = opts.viewport ?? DESKTOP;
  const phone = viewport === PHONE;
  const context = await browser.newContext({
    viewport,
    isMobile: phone,
    hasTouch: phone,
    deviceScaleFactor: 1,
    ...(opts.acceptDownloads ? { acceptDownloads: true } : {}),
  });
  if (opts.clipboardOrigin) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: opts.clipboardOrigin });
  context.on('weberror', (e) => opts.errors.push(e.error().message));
  await context.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => {
      ((window as any).__csp ??= []).push(`${e.effectiveDirective} ${e.blockedURI}`);
    }),
  );
  return context;
}

/** Waits until the locator's first element's text is (or contains, or matches) `want`; the error says the last text. */
export async function hasText(loc: Locator, want: string | RegExp, timeoutMs = 10_000): Promise<void> {
  let last = '';
  await waitFor(
    async () => {
      last = ((await loc.first().textContent()) ?? '').trim();
      return typeof want === 'string' ? last === want || last.includes(want) : want.test(last);
    },
    timeoutMs,
    `text ${String(want)}`,
  ).catch((e) => {
    throw new Error(`${(e as Error).message}; last text: ${last.slice(0, 300)}`);
  });
}

/** Waits until the locator matches exactly `n` elements; the error says the last count. */
export async function hasCount(loc: Locator, n: number, timeoutMs = 10_000): Promise<void> {
  let last = -1;
  await waitFor(async () => (last = await loc.count()) === n, timeoutMs, `${n} elements`).catch((e) => {
    throw new Error(`${(e as Error).message}; last count ${last}`);
  });
}

/**
 * Starts recording every text the locator's first element shows (into `window.__said`), for {@link hasSaid}: a status
 * line that a quick answer rewrites ("saved" and then "is ready") can change between two polls of {@link hasText}.
 */
export async function recordTexts(loc: Locator): Promise<void> {
  await loc.first().evaluate((line) => {
    const said = ((window as any).__said = [line.textContent ?? '']);
    new MutationObserver(() => said.push(line.textContent ?? '')).observe(line, { subtree: true, childList: true, characterData: true });
  });
}

/** Waits until the element {@link recordTexts} watches has shown a text containing `want`; the error lists what it showed. */
export async function hasSaid(page: Page, want: string, timeoutMs = 10_000): Promise<void> {
  let said: string[] = [];
  await waitFor(
    async () => (said = (await page.evaluate(() => (window as any).__said as string[] | undefined)) ?? []).some((t) => t.includes(want)),
    timeoutMs,
    `the text "${want}"`,
  ).catch((e) => {
    throw new Error(`${(e as Error).message}; texts shown: ${JSON.stringify(said.slice(-10)).slice(0, 600)}`);
  });
}

/** axe-core's serious and critical findings on the page as it is now, each named after `name`. */
export async function axeFindings(page: Page, name: string): Promise<string[]> {
  await page.evaluate(`${AXE}\n;void 0`);
  const violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] = await page.evaluate(
    async () => (await (window as any).axe.run(document, { resultTypes: ['violations'] })).violations,
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${name}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Sets the password on a console invitation page (the link an owner or a user's invite gives). */
export async function acceptInvite(page: Page, url: string, password: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
}
