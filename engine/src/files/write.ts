// Puts generated files on disk as DIR/<part id>/<file name>, for `kerf analyze --out DIR`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProductionFiles } from './generate.ts';
import { fileNameOf, type FileKind } from './kinds.ts';

/** Longest folder name taken from a part or file name, characters (filesystems allow 255 bytes; a UTF-8 letter takes up to 4). */
const FOLDER_NAME_MAX_CHARS = 60;

/**
 * A folder name that never escapes its parent: letters and digits of any script (a Cyrillic part name
 * stays readable), `_ . -`; everything else (separators, spaces, controls, reserved signs) becomes `_`.
 */
export function safeFolderName(name: string): string {
  const s = [...name.normalize('NFC').replace(/[^\p{L}\p{M}\p{N}_.-]/gu, '_')].slice(0, FOLDER_NAME_MAX_CHARS).join('');
  return s === '.' || s === '..' || s === '' ? `_${s}` : s;
}

export async function writeProductionFiles(dir: string, files: ProductionFiles): Promise<string[]> {
  const written: string[] = [];
  for (const [partId, kinds] of Object.entries(files)) {
    const partDir = join(dir, safeFolderName(partId));
    await mkdir(partDir, { recursive: true });
    for (const [kind, bytes] of Object.entries(kinds)) {
      if (!bytes) continue;
      const path = join(partDir, fileNameOf(kind as FileKind));
      await writeFile(path, bytes);
      written.push(path);
    }
  }
  return written;
}
