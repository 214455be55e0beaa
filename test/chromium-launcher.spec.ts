import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, ROOT, tempDir } from '@app/testing';

const LAUNCHER = join(ROOT, 'libs/testing/src/chromium-launcher.sh');

/** Every process below this one: pid, and its command line split into arguments (Chromium's children join theirs with spaces). */
function descendants(): Array<{ pid: number; args: string[] }> {
  const parent = new Map<number, number>();
  const args = new Map<number, string[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      args.set(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).filter(Boolean));
    } catch {
      // The process ended while being read.
    }
  }
  const below = (pid: number): boolean => {
    for (let p = parent.get(pid); p; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  return [...args].filter(([pid]) => below(pid)).map(([pid, a]) => ({ pid, args: a }));
}

describe('Chromium for the browser tests (libs/testing launchChromium, chromium-launcher.sh)', () => {
  it('hands the browser one --disable-features holding every list it was given, the other arguments in order', () => {
    const printer = join(tempDir('launcher-'), 'print-args.sh');
    writeFileSync(printer, '#!/bin/sh\nfor a in "$@"; do echo "$a"; done\n');
    chmodSync(printer, 0o755);
    const r = spawnSync(LAUNCHER, ['--a', '--disable-features=X,Y', '--b=1 2', '--disable-features=Z', '--c'], {
      env: { ...process.env, CHROMIUM_LAUNCHER_EXEC: printer },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['--a', '--b=1 2', '--c', '--disable-features=X,Y,Z']);
    // Nothing to merge: the arguments as given.
    const plain = spawnSync(LAUNCHER, ['--a'], { env: { ...process.env, CHROMIUM_LAUNCHER_EXEC: printer }, encoding: 'utf8' });
    expect(plain.stdout.trim().split('\n')).toEqual(['--a']);
  });

  it("runs without Chrome's own WebUI renderers, with Playwright's disabled features kept beside ours", async () => {
    const browser = await launchChromium({ webgl: false });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.setContent('<h1>a page</h1>');
      await expect(page.locator('h1').textContent()).resolves.toBe('a page');
      const chromium = descendants().filter((p) => p.args.some((a) => a.includes('chromium')));
      const main = chromium.filter((p) => !p.args.some((a) => a.startsWith('--type=')));
      expect(main).toHaveLength(1);
      const disabled = main[0].args.filter((a) => a.startsWith('--disable-features='));
      expect(disabled).toHaveLength(1);
      const features = disabled[0].slice('--disable-features='.length).split(',');
      // Ours and Playwright's own (it disables about fifteen, e.g. its PaintHolding); a second list would have dropped the first.
      expect(features).toEqual(expect.arrayContaining(['PreloadTopChromeWebUI', 'InitialWebUI', 'WebUIOmniboxPopup', 'PaintHolding']));
      expect(chromium.some((p) => p.args.includes('--type=renderer'))).toBe(true);
      expect(chromium.filter((p) => p.args.includes('--top-chrome-webui'))).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  }, 30_000);
});
