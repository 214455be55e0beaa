#!/usr/bin/env node
// `npm run docs:config`: writes docs/configuration.md from the configuration schema (built first).
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { configReference } = require('../dist/libs/config/src');

writeFileSync(join(__dirname, '..', 'docs', 'configuration.md'), configReference());
