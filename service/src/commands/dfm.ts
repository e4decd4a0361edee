// `kerf dfm FILE --configuration JSON|@file [--base-url URL] [--now ISO] [--images]`: the DFM report of
// the STEP file (without the inline SVGs unless --images), from the same use case as POST /v1/dfm.
// Bad input: a JSON error {"error":{code,message,param?}} on stderr and a non-zero exit.
import { stdout } from 'node:process';
import { checkFile, localCaller } from '@kerf/usecases';
import { localContext, parseCommon, readInput, reportError, forOutput } from './local-check.ts';

const USAGE = 'usage: kerf dfm FILE --configuration JSON|@file.json [--base-url URL] [--now ISO] [--images]\n';

export async function run(args: string[]): Promise<number> {
  try {
    const a = await parseCommon(args, [], USAGE, 'dfm');
    if (a === 'help') return 0;
    const file = await readInput(a.file);
    const report = await checkFile(localContext(a, file.bytes, a.configuration), localCaller(), { ...file, configuration: a.configuration, images: a.images });
    stdout.write(JSON.stringify(forOutput(report, a), null, 2) + '\n');
    return 0;
  } catch (err) {
    return reportError(err);
  }
}
