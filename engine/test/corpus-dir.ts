// Where the shared real-CAD corpus lives: ../shared/corpus/real beside the checkout (as CI lays it
// out), never one machine's absolute path.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = fileURLToPath(new URL('../../../shared/corpus/real/', import.meta.url));
export const HAS_CORPUS = existsSync(CORPUS_DIR);
export const corpusPath = (file: string): string => CORPUS_DIR + file;
