// The 3D viewer (@google/model-viewer, three.js inside) served from its npm package. Its shadow DOM
// template carries one <style> element; the design page's CSP allows exactly that element by its
// sha256 (computed from the served file, so an upgrade keeps working) rather than 'unsafe-inline'.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const FILE = createRequire(import.meta.url).resolve('@google/model-viewer/dist/model-viewer.min.js');
export const MODEL_VIEWER_DIR = dirname(FILE);

/** 'sha256-...' sources of the bundle's inline <style> elements. */
export function modelViewerStyleHashes(): string[] {
  const source = readFileSync(FILE, 'utf8');
  return [...source.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);
}
