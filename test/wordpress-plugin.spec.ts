import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import JSZip from 'jszip';

/**
 * The WordPress / WooCommerce plugin (integrations/wordpress/image-ar), without WordPress: every PHP file
 * through `php -l`, its PHPUnit suite (integrations/wordpress/tests: WordPress and WooCommerce functions
 * stubbed, rendered HTML read back by PHP's DOM parser), and the zip `npm run package:wordpress` writes.
 * PHP and PHPUnit come from Debian (php-cli, phpunit; .ci/run installs them): without them this fails.
 */

const ROOT = join(__dirname, '..');
const WP = join(ROOT, 'integrations/wordpress');
const PLUGIN = join(WP, 'image-ar');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** A plugin or readme header's `Name: value` lines. */
function header(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/^[\s*]*([A-Z][A-Za-z ]+):\s*(.+?)\s*$/gm)) out[m[1].trim()] = m[2];
  return out;
}

describe('WordPress plugin', () => {
  it('has no PHP syntax error in any file (php -l)', () => {
    const php = filesUnder(WP).filter((f) => f.endsWith('.php'));
    expect(php.length).toBeGreaterThanOrEqual(12);
    for (const file of php) {
      const r = spawnSync('php', ['-l', join(WP, file)], { encoding: 'utf8' });
      expect({ file, error: r.error?.message, status: r.status, out: r.status === 0 ? '' : r.stdout + r.stderr }).toEqual({
        file,
        error: undefined,
        status: 0,
        out: '',
      });
    }
  });

  it('passes its PHPUnit suite', () => {
    const r = spawnSync('phpunit', ['-c', join(WP, 'phpunit.xml.dist')], { encoding: 'utf8', cwd: WP });
    expect(r.error?.message).toBeUndefined();
    const out = r.stdout + r.stderr;
    expect({ status: r.status, out }).toEqual({ status: 0, out: expect.stringMatching(/OK \(\d+ tests, \d+ assertions\)/) });
    expect(Number(/OK \((\d+) tests/.exec(out)?.[1])).toBeGreaterThanOrEqual(35);
  });

  it('declares PHP 8.1+, and its readme agrees with the plugin header', () => {
    const plugin = header(readFileSync(join(PLUGIN, 'image-ar.php'), 'utf8'));
    const readme = header(readFileSync(join(PLUGIN, 'readme.txt'), 'utf8'));
    expect(plugin['Plugin Name']).toBe('Image AR');
    expect(plugin['Requires PHP']).toBe('8.1');
    expect(plugin['Text Domain']).toBe('image-ar');
    expect(readme['Stable tag']).toBe(plugin.Version);
    expect(readme['Requires PHP']).toBe(plugin['Requires PHP']);
    expect(readme['Requires at least']).toBe(plugin['Requires at least']);
  });

  it('packages as a zip with the folder image-ar/ at its root, holding the plugin and nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wp-zip-'));
    try {
      const out = join(dir, 'image-ar.zip');
      const r = spawnSync(process.execPath, [join(ROOT, 'scripts/package-wordpress.mjs'), out], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);

      const zip = await JSZip.loadAsync(readFileSync(out));
      const entries = Object.keys(zip.files).sort();
      expect(entries).toEqual(filesUnder(PLUGIN).map((f) => `image-ar/${f}`));
      expect(entries).toEqual(
        expect.arrayContaining([
          'image-ar/image-ar.php',
          'image-ar/readme.txt',
          'image-ar/uninstall.php',
          'image-ar/blocks/viewer/block.json',
          'image-ar/blocks/viewer/editor.js',
          'image-ar/blocks/viewer/editor.asset.php',
        ]),
      );
      expect(entries.filter((e) => /\/tests?\/|phpunit|\/\./.test(e))).toEqual([]);
      const main = await zip.file('image-ar/image-ar.php')!.async('string');
      expect(main).toBe(readFileSync(join(PLUGIN, 'image-ar.php'), 'utf8'));

      // The same files give the same bytes (fixed dates, sorted entries).
      const again = join(dir, 'again.zip');
      spawnSync(process.execPath, [join(ROOT, 'scripts/package-wordpress.mjs'), again]);
      expect(readFileSync(again).equals(readFileSync(out))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
