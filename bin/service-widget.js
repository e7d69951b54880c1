#!/usr/bin/env node
// The package's command line; the implementation is bundled into dist/ by `npm run build`.
import '../dist/server/cli.js';
