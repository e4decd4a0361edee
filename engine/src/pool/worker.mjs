// Pool thread entry: registers tsx so the engine's TypeScript runs as it is (as bin/kerf.mjs does),
// then hands piscina the job function.
import { register } from 'tsx/esm/api';

register();
const mod = await import('./worker.ts');
export default mod.default;
