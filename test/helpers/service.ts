// Starts the real service (real store on disk in a temp dir, real engine, fastify listening on a
// port) for end-to-end tests, with two accounts and their API keys.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import pino from 'pino';
import { configFromEnv, startService, type Service, type ServiceConfig, type StartOptions } from '@kerf/service';

export interface TestService {
  url: string;
  service: Service;
  dataDir: string;
  keyA: string;
  keyB: string;
  accountA: string;
  accountB: string;
  close(): Promise<void>;
}

export async function startTestService(overrides: Partial<ServiceConfig> = {}, options: Omit<StartOptions, 'logger'> = {}): Promise<TestService> {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'kerf-e2e-'));
  const port = overrides.port ?? (await freePort());
  const config: ServiceConfig = {
    ...configFromEnv({}), host: '127.0.0.1', dataDir, jobPollMs: 50, logLevel: 'silent', rateLimit: false, signupRateLimit: false,
    baseUrl: `http://127.0.0.1:${port}`, ...overrides, port,
  };
  const service = await startService(config, { ...options, logger: pino({ level: config.logLevel }) });
  await service.listen();
  const a = await service.store.accounts.create({ email: `a-${Date.now()}-${Math.random()}@test.local`, name: 'A' });
  const b = await service.store.accounts.create({ email: `b-${Date.now()}-${Math.random()}@test.local`, name: 'B' });
  const ka = await service.store.apiKeys.create(a.id);
  const kb = await service.store.apiKeys.create(b.id);
  const url = config.baseUrl;
  return {
    url, service, dataDir, keyA: ka!.api_key, keyB: kb!.api_key, accountA: a.id, accountB: b.id,
    async close() {
      await service.close();
      if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
