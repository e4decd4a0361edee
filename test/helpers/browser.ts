// A headless Chromium for end-to-end tests of the web site (Debian's `chromium`, driven by
// playwright-core; .ci/run installs it when missing).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = [process.env.KERF_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => !!p);

/** extraArgs: e.g. WEBGL_ARGS for pages with a 3D viewer. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = CANDIDATES.find((p) => existsSync(p));
  if (!executablePath) throw new Error('Chromium not found: apt-get install -y chromium (or set KERF_CHROMIUM)');
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage', ...extraArgs] });
}

/** WebGL on a machine without a GPU: Chromium's software renderer. */
export const WEBGL_ARGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--disable-gpu-watchdog'];

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page (run by the debugging protocol, so the page's CSP stays as served). */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await page.evaluate(`${AXE}\n;axe.run(document, { resultTypes: ['violations'] })`) as { violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}
