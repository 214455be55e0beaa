import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export interface ChromiumOptions {
  /**
   * WebGL through SwiftShader (default true): model-viewer draws the model. Costs about 14 CPU-seconds in the
   * GPU process per page that shows a model (shaders and the environment map, on the CPU), so a file that
   * only reads a 3D page's markup (its links, attributes, banner) launches without: a browser with no WebGL,
   * as some phones and locked-down desktops are, where model-viewer shows the poster (and throws one page
   * error, "reading 'supportsPresentation'": a file that fails on page errors keeps WebGL).
   */
  webgl?: boolean;
  /** The browser's own user agent (what a beacon sent while a page is being left carries, not the context's). */
  userAgent?: string;
}

/** Debian's Chromium, headless, with the flags this machine's closed network needs (DESIGN §6). */
export async function launchChromium(options: ChromiumOptions = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`);
  const webgl = options.webgl ?? true;
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(webgl ? ['--use-gl=swiftshader', '--enable-unsafe-swiftshader'] : ['--disable-webgl', '--disable-3d-apis']),
      ...(options.userAgent ? [`--user-agent=${options.userAgent}`] : []),
    ],
  });
}

export const USER_AGENTS = {
  ios: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
};
