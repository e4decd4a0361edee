// Scene -> PNG without native dependencies: scanline polygon fill (even-odd, like the SVG), thick
// lines, and labels in a built-in 5x7 pixel font. Encoded with node:zlib.
import { deflateSync } from 'node:zlib';
import { HIDDEN_LABEL_OPACITY, type Scene } from './scene.ts';
import type { Vec2 } from '../geometry/model.ts';

/** 5x7 glyphs, one row per string, '#' = ink. Labels only ever use these characters. */
const GLYPHS: Record<string, string[]> = {
  '0': [' ### ', '#   #', '#  ##', '# # #', '##  #', '#   #', ' ### '],
  '1': ['  #  ', ' ##  ', '  #  ', '  #  ', '  #  ', '  #  ', ' ### '],
  '2': [' ### ', '#   #', '    #', '   # ', '  #  ', ' #   ', '#####'],
  '3': ['#####', '   # ', '  #  ', '   # ', '    #', '#   #', ' ### '],
  '4': ['   # ', '  ## ', ' # # ', '#  # ', '#####', '   # ', '   # '],
  '5': ['#####', '#    ', '#### ', '    #', '    #', '#   #', ' ### '],
  '6': ['  ## ', ' #   ', '#    ', '#### ', '#   #', '#   #', ' ### '],
  '7': ['#####', '    #', '   # ', '  #  ', ' #   ', ' #   ', ' #   '],
  '8': [' ### ', '#   #', '#   #', ' ### ', '#   #', '#   #', ' ### '],
  '9': [' ### ', '#   #', '#   #', ' ####', '    #', '   # ', ' ##  '],
  H: ['#   #', '#   #', '#   #', '#####', '#   #', '#   #', '#   #'],
  B: ['#### ', '#   #', '#   #', '#### ', '#   #', '#   #', '#### '],
  F: ['#####', '#    ', '#    ', '#### ', '#    ', '#    ', '#    '],
  '-': ['     ', '     ', '     ', '#####', '     ', '     ', '     '],
};
const GLYPH_SCALE = 2;

function parseColor(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) return [0, 0, 0];
  const v = parseInt(m[1], 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

class Canvas {
  readonly data: Uint8Array;
  constructor(readonly width: number, readonly height: number, background: string) {
    this.data = new Uint8Array(width * height * 3);
    const [r, g, b] = parseColor(background);
    for (let i = 0; i < width * height; i++) { this.data[3 * i] = r; this.data[3 * i + 1] = g; this.data[3 * i + 2] = b; }
  }
  set(x: number, y: number, c: [number, number, number]): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const o = 3 * (y * this.width + x);
    this.data[o] = c[0]; this.data[o + 1] = c[1]; this.data[o + 2] = c[2];
  }
  /** even-odd scanline fill sampled at pixel centres */
  fill(loops: Vec2[][], c: [number, number, number]): void {
    let minY = Infinity, maxY = -Infinity;
    for (const l of loops) for (const p of l) { if (p[1] < minY) minY = p[1]; if (p[1] > maxY) maxY = p[1]; }
    const y0 = Math.max(0, Math.floor(minY)), y1 = Math.min(this.height - 1, Math.ceil(maxY));
    const xs: number[] = [];
    for (let y = y0; y <= y1; y++) {
      const sy = y + 0.5;
      xs.length = 0;
      for (const l of loops) {
        for (let i = 0, j = l.length - 1; i < l.length; j = i++) {
          const a = l[j], b = l[i];
          if ((a[1] <= sy && b[1] > sy) || (b[1] <= sy && a[1] > sy)) xs.push(a[0] + ((sy - a[1]) / (b[1] - a[1])) * (b[0] - a[0]));
        }
      }
      xs.sort((p, q) => p - q);
      for (let k = 0; k + 1 < xs.length; k += 2) {
        const xa = Math.max(0, Math.ceil(xs[k] - 0.5)), xb = Math.min(this.width - 1, Math.floor(xs[k + 1] - 0.5));
        for (let x = xa; x <= xb; x++) this.set(x, y, c);
      }
    }
  }
  line(a: Vec2, b: Vec2, c: [number, number, number], width: number, dashed: boolean): void {
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const steps = Math.max(1, Math.ceil(len * 2));
    const r = Math.max(0, (width - 1) / 2);
    for (let i = 0; i <= steps; i++) {
      const t = i / steps;
      if (dashed && Math.floor((t * len) / 6) % 2 === 1) continue;
      const x = a[0] + (b[0] - a[0]) * t, y = a[1] + (b[1] - a[1]) * t;
      for (let dx = -Math.ceil(r); dx <= Math.ceil(r); dx++) for (let dy = -Math.ceil(r); dy <= Math.ceil(r); dy++) this.set(Math.round(x + dx), Math.round(y + dy), c);
    }
  }
  text(at: Vec2, s: string, c: [number, number, number]): void {
    const w = s.length * 6 * GLYPH_SCALE - GLYPH_SCALE, h = 7 * GLYPH_SCALE;
    const x0 = Math.round(at[0] - w / 2), y0 = Math.round(at[1] - h / 2);
    const white: [number, number, number] = [255, 255, 255];
    for (let pass = 0; pass < 2; pass++) {
      [...s].forEach((ch, i) => {
        const g = GLYPHS[ch.toUpperCase()];
        if (!g) return;
        for (let gy = 0; gy < 7; gy++) for (let gx = 0; gx < 5; gx++) {
          if (g[gy][gx] !== '#') continue;
          for (let sy = 0; sy < GLYPH_SCALE; sy++) for (let sx = 0; sx < GLYPH_SCALE; sx++) {
            const x = x0 + i * 6 * GLYPH_SCALE + gx * GLYPH_SCALE + sx, y = y0 + gy * GLYPH_SCALE + sy;
            if (pass === 0) { for (let ox = -1; ox <= 1; ox++) for (let oy = -1; oy <= 1; oy++) this.set(x + ox, y + oy, white); }
            else this.set(x, y, c);
          }
        }
      });
    }
  }
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; t[n] = c >>> 0; }
  return t;
})();
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  v.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

export function encodePng(width: number, height: number, rgb: Uint8Array): Uint8Array {
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    raw[y * (1 + width * 3)] = 0; // filter: none
    raw.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (1 + width * 3) + 1);
  }
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width); v.setUint32(4, height);
  ihdr[8] = 8; ihdr[9] = 2; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0; // 8-bit RGB
  const parts = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

export function sceneToPng(scene: Scene): Uint8Array {
  const canvas = new Canvas(scene.width, scene.height, scene.background);
  for (const p of scene.polygons) {
    canvas.fill(p.loops, parseColor(p.fill));
    if (p.stroke && p.stroke !== p.fill) {
      for (const l of p.loops) for (let i = 0, j = l.length - 1; i < l.length; j = i++) canvas.line(l[j], l[i], parseColor(p.stroke), 1, false);
    }
  }
  for (const l of scene.lines) canvas.line(l.a, l.b, parseColor(l.stroke), Math.max(1, Math.round(l.strokeWidth)), l.dashed);
  for (const l of scene.labels) {
    const c = parseColor(l.color);
    const faded = (x: number): number => Math.round(x * HIDDEN_LABEL_OPACITY + 255 * (1 - HIDDEN_LABEL_OPACITY));
    canvas.text(l.at, l.text, l.hidden ? [faded(c[0]), faded(c[1]), faded(c[2])] : c);
  }
  return encodePng(scene.width, scene.height, canvas.data);
}
