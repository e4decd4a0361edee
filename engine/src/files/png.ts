// PNG images are the SVG images rendered by resvg (WASM) with a bundled font, so a view's PNG shows
// exactly what its SVG shows: one drawing, two encodings.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import type { Scene } from './scene.ts';
import { sceneToSvg } from './svg.ts';

const require = createRequire(import.meta.url);
/** DejaVu Sans: every glyph our labels use (digits, letters, degree sign, multiplication sign). */
const FONT_FILES = ['dejavu-fonts-ttf/ttf/DejaVuSans.ttf', 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf', 'dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf', 'dejavu-fonts-ttf/ttf/DejaVuSans-BoldOblique.ttf'];
export const FONT_FAMILY = 'DejaVu Sans';

let fonts: Promise<Uint8Array[]> | null = null;

/** Compiles resvg once per thread and reads the fonts once. */
function ready(): Promise<Uint8Array[]> {
  fonts ??= (async () => {
    await initWasm(await readFile(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));
    return Promise.all(FONT_FILES.map(async (f) => new Uint8Array(await readFile(require.resolve(f)))));
  })();
  return fonts;
}

export async function svgToPng(svg: string): Promise<Uint8Array> {
  const fontBuffers = await ready();
  const r = new Resvg(svg, { font: { fontBuffers, defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY }, fitTo: { mode: 'original' } });
  try {
    const image = r.render();
    try { return image.asPng(); } finally { image.free(); }
  } finally {
    r.free();
  }
}

export function sceneToPng(scene: Scene): Promise<Uint8Array> {
  return svgToPng(sceneToSvg(scene));
}
