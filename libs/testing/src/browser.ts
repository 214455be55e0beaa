import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
/**
 * Debian's chromium-headless-shell: the same Chromium build's "old" headless mode, a browser without the browser's
 * windows, tab strip and views, the one Playwright itself runs for `headless: true`. Plain `chromium --headless`
 * draws each context as a full browser window: measured on this 2-core machine, 20 contexts each with a page and a
 * screenshot cost 11.7 CPU-s in Chromium against 5.0 with the shell (launch 0.7 against 0.3). The tests use it where
 * it is installed (.ci/run installs it) and Chromium itself otherwise.
 */
export const CHROMIUM_HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
/** Runs the browser with the --disable-features lists merged (Chromium honours only the last one). */
const LAUNCHER = join(__dirname, 'chromium-launcher.sh');

/**
 * Chrome's own toolbar and omnibox as WebUI: in headless mode too, every window (each browser context is one)
 * got a `--top-chrome-webui` renderer that redrew as its page loaded. In the showcase pages' file (38 contexts)
 * those renderers cost 18.8 CPU-s and the browser process 16.9; without them Chromium took 21 CPU-s instead of
 * 61 and the file 29 s instead of 42 (2 cores). Nothing a test looks at is drawn by them.
 */
const NO_CHROME_UI = [
  'InitialWebUI',
  'WebUIToolbarProcessOverheadExperiment',
  'PreloadTopChromeWebUI',
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
];

/**
 * Mesa's software OpenGL driver (llvmpipe, Debian's libgl1-mesa-dri), where installed. WebGL through ANGLE on
 * it costs a model-viewer page about 1.6 CPU-seconds in Chromium's GPU process, against about 13 through
 * Chromium's own SwiftShader (measured on this 2-core machine: the same embed page, loaded and 10 s idle), and
 * Mesa keeps compiled shaders on disk between runs. Compositing stays in software: with GPU compositing on
 * llvmpipe the idle page cost 0.7 CPU-s every second.
 */
export function mesaSoftwareGl(): boolean {
  for (const lib of ['/usr/lib', '/usr/lib64']) {
    if (!existsSync(lib)) continue;
    if (existsSync(join(lib, 'dri/swrast_dri.so'))) return true;
    for (const arch of readdirSync(lib)) if (arch.endsWith('-linux-gnu') && existsSync(join(lib, arch, 'dri/swrast_dri.so'))) return true;
  }
  return false;
}

function webglFlags(): string[] {
  if (mesaSoftwareGl()) return ['--use-gl=angle', '--use-angle=gl-egl', '--ignore-gpu-blocklist', '--disable-gpu-compositing'];
  return ['--disable-gpu', '--use-gl=swiftshader', '--enable-unsafe-swiftshader'];
}

export interface ChromiumOptions {
  /**
   * WebGL in software (default true): model-viewer draws the model. Through Mesa's llvmpipe where installed
   * ({@link mesaSoftwareGl}: ~1.6 CPU-seconds in the GPU process per page that shows a model), else through
   * SwiftShader (~13-14 CPU-seconds: shaders and the environment map, on the CPU). A file that only reads a 3D
   * page's markup (its links, attributes, banner) can launch without: a browser with no WebGL,
   * as some phones and locked-down desktops are, where model-viewer shows the poster (and throws one page
   * error, "reading 'supportsPresentation'": a file that fails on page errors keeps WebGL).
   */
  webgl?: boolean;
  /** The browser's own user agent (what a beacon sent while a page is being left carries, not the context's). */
  userAgent?: string;
}

/** Debian's Chromium, headless, with the flags this machine's closed network needs (DESIGN §6). */
export async function launchChromium(options: ChromiumOptions = {}): Promise<Browser> {
  const executable = existsSync(CHROMIUM_HEADLESS_SHELL) ? CHROMIUM_HEADLESS_SHELL : CHROMIUM;
  if (!existsSync(executable))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium-headless-shell or chromium (.ci/run does)`);
  const webgl = options.webgl ?? true;
  // Loaded here, not at the top: every spec that imports @app/testing would load playwright-core's ~0.6 CPU-s of
  // modules into its own Jest registry, browser or not.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  return chromium.launch({
    executablePath: LAUNCHER,
    // Playwright hands the browser this environment instead of the process's own.
    env: { ...process.env, CHROMIUM_LAUNCHER_EXEC: executable },
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-features=${NO_CHROME_UI.join(',')}`,
      ...(webgl ? webglFlags() : ['--disable-gpu', '--disable-webgl', '--disable-3d-apis']),
      ...(options.userAgent ? [`--user-agent=${options.userAgent}`] : []),
    ],
  });
}

export const USER_AGENTS = {
  ios: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
};
