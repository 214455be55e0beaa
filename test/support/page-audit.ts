import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CATALOGUES, type Locale } from '@app/catalogue';
import { ROOT } from './app-process';

/**
 * Checks of a public page in a real browser, as test/catalogue-pages.browser.e2e-spec.ts makes them: axe-core's
 * serious and critical findings, and the English catalogue's words left on a page in another language.
 */

const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');

/** Every picture of the page loaded (lazy ones made eager first). */
export async function loadAllImages(p: Page): Promise<void> {
  await p.evaluate(() =>
    document.querySelectorAll('img[loading="lazy"]').forEach((i) => {
      (i as HTMLImageElement).loading = 'eager';
    }),
  );
  await p.waitForFunction(() => Array.from(document.images).every((i) => i.complete && i.naturalWidth > 0), undefined, { timeout: 30_000 });
}

/** axe-core's serious and critical findings on the page as it is now (injected past the CSP: the context must bypass it). */
export async function axeFindings(p: Page): Promise<string[]> {
  await p.addScriptTag({ path: AXE });
  const result = await p.evaluate(async () => (window as any).axe.run(document, { resultTypes: ['violations'] }));
  return (result.violations as { id: string; impact: string; nodes: { target: string[] }[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${p.url()} ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** axe-core's serious and critical findings on a page opened in a context that lets the test inject it past the CSP. */
export async function axeViolations(browser: Browser, url: string, opts: Parameters<Browser['newContext']>[0] = {}): Promise<string[]> {
  const ctx = await browser.newContext({ ...opts, bypassCSP: true });
  const p = await ctx.newPage();
  await p.goto(url);
  await loadAllImages(p);
  const found = await axeFindings(p);
  await ctx.close();
  return found;
}

/**
 * The English catalogue's words that must not show on a page in `locale`: every English message that the
 * locale translates differently, cut at its placeholders, each piece of three or more characters with a
 * letter in it.
 */
export function englishFragments(locale: Locale): string[] {
  const out = new Set<string>();
  for (const [key, en] of Object.entries(CATALOGUES.en)) {
    if (CATALOGUES[locale][key as keyof typeof CATALOGUES.en] === en) continue;
    for (const part of en.split(/\{[A-Za-z0-9_]+\}/)) {
      const f = part.replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, '');
      if ([...f].length >= 3 && /\p{L}/u.test(f)) out.add(f);
    }
  }
  return [...out];
}

/** Everything a visitor or a screen reader gets of the page as text: rendered text, hidden text, labels, titles, alt texts. */
export async function pageText(p: Page): Promise<string> {
  return p.evaluate(() => {
    const texts = [document.title, document.body.innerText];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement?.tagName;
      if (parent !== 'SCRIPT' && parent !== 'STYLE') texts.push(n.textContent ?? '');
    }
    for (const el of Array.from(document.querySelectorAll('[aria-label],[title],[alt],[placeholder]')))
      for (const a of ['aria-label', 'title', 'alt', 'placeholder']) if (el.hasAttribute(a)) texts.push(el.getAttribute(a)!);
    return texts.join('\n');
  });
}

/** The English words found in the page's text (whole words, case as in the catalogue). */
export async function englishLeft(p: Page, locale: Locale): Promise<string[]> {
  const text = await pageText(p);
  return englishFragments(locale).filter((f) =>
    new RegExp(`(?<![\\p{L}\\p{N}])${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u').test(text),
  );
}
