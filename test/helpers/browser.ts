// A headless Chromium for end-to-end tests of the web site (Debian's `chromium`, driven by
// playwright-core; .ci/run installs it when missing).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = [process.env.KERF_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => !!p);

/** extraArgs: e.g. WEBGL_ARGS for pages with a 3D viewer. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = CANDIDATES.find((p) => existsSync(p));
  if (!executablePath) throw new Error('Chromium not found: apt-get install -y chromium (or set KERF_CHROMIUM)');
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage', ...extraArgs] });
}

/** WebGL on a machine without a GPU: Chromium's software renderer. */
export const WEBGL_ARGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];
