#!/usr/bin/env node
// The `kerf` command: registers tsx so the TypeScript sources run as they are, then hands over to the CLI.
import { register } from 'tsx/esm/api';
register();
await import('../service/src/cli.ts');
