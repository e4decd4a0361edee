// `kerf ...` spawned as a user would run it (the real bin), with the configuration the test gives
// and none that the environment running the tests happens to have (a MongoDB URL, a Stripe key).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const KERF = fileURLToPath(new URL('../../../bin/kerf.mjs', import.meta.url));

export interface Run { code: number | null; stdout: string; stderr: string }

export function kerf(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const { MONGODB_URL: _m, STRIPE_SECRET_KEY: _s, STRIPE_WEBHOOK_SECRET: _w, ...base } = process.env;
    const child = spawn(process.execPath, [KERF, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
