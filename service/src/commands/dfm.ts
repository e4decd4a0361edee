// `kerf dfm FILE --configuration JSON|@file [--base-url URL] [--now ISO] [--images]`: the DFM report of
// the STEP file (without the inline SVGs unless --images), from the same use case as POST /v1/dfm.
// Bad input: a JSON error {"error":{code,message,param?}} on stderr and a non-zero exit.
import { stdout } from 'node:process';
import type { Design } from '@kerf/engine';
import { checkFile, localCaller, stockChoicesOf } from '@kerf/usecases';
import { humanOutput, localContext, parseCommon, readInput, reportError, forOutput } from './local-check.ts';
import { dfmSummary, refuseUnknownIds, useColour } from './summary.ts';

const USAGE = 'usage: kerf dfm FILE --configuration JSON|@file.json [--base-url URL] [--now ISO] [--images] [--json]\n';

export async function run(args: string[]): Promise<number> {
  try {
    const a = await parseCommon(args, [], USAGE, 'dfm');
    if (a === 'help') return 0;
    const file = await readInput(a.file);
    const ctx = localContext(a, file.bytes, a.configuration);
    let design: Design | null = null;
    const report = await checkFile(ctx, localCaller(), { ...file, configuration: a.configuration, images: a.images, onDesign: (d) => { design = d; } });
    refuseUnknownIds([report], a.configuration);
    if (humanOutput(a)) {
      const parts = (design as Design | null)?.parts ?? [];
      stdout.write(dfmSummary(report, design, await stockChoicesOf(ctx, parts), useColour(stdout.isTTY)));
    } else {
      stdout.write(JSON.stringify(forOutput(report, a), null, 2) + '\n');
    }
    return 0;
  } catch (err) {
    return reportError(err);
  }
}
