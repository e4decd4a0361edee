// Where the real-CAD corpus lives: real STEP exports kept in a directory beside the checkout (the
// path below, as CI lays it out), not in the repository, and never at one machine's absolute path.
// HAS_CORPUS says whether it is there.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = fileURLToPath(new URL('../../../shared/corpus/real/', import.meta.url));
export const HAS_CORPUS = existsSync(CORPUS_DIR);
export const corpusPath = (file: string): string => CORPUS_DIR + file;
