#!/usr/bin/env node
// The `kerf` command of an installed @kerf/service: the compiled CLI.
import '../dist/src/cli.js';
