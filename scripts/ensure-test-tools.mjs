#!/usr/bin/env node
// Run by `npm test` before anything else (`pretest`): the tests drive a real Chromium and a real
// nats-server. When one is missing, root with apt installs the Debian package; anyone else gets one
// line saying what to install or which variable to set, and `npm test` stops there.
//   node scripts/ensure-test-tools.mjs [--dry-run]   (--dry-run: say what would be installed, install nothing)
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

const DEFAULT_CHROMIUM = '/usr/bin/chromium';
const dryRun = process.argv.includes('--dry-run');

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A command as `spawn` would find it: a path, or a name looked up on PATH. */
function found(command) {
  if (command.includes('/')) return executable(command);
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir !== '' && executable(path.join(dir, command)));
}

/** What is missing: a Debian package to install, or a variable that names nothing usable. */
function missing() {
  const packages = [];
  const wrong = [];
  const chromium = process.env.CHROMIUM_PATH;
  if (chromium) {
    if (!executable(chromium)) wrong.push(`CHROMIUM_PATH=${chromium} is not an executable`);
  } else if (!executable(DEFAULT_CHROMIUM)) packages.push('chromium');
  if (!process.env.TEST_NATS_URL) {
    const nats = process.env.NATS_SERVER_BIN;
    if (nats) {
      if (!found(nats)) wrong.push(`NATS_SERVER_BIN=${nats} is not an executable`);
    } else if (!found('nats-server')) packages.push('nats-server');
  }
  return { packages, wrong };
}

function refuse(packages, wrong) {
  const needs = [
    ...wrong,
    ...(packages.length > 0
      ? [
          `${packages.join(' and ')} not found: install ${packages.length > 1 ? 'them' : 'it'} (apt-get install ${packages.join(' ')})`,
        ]
      : []),
  ];
  process.stderr.write(
    `npm test cannot run its browser and messaging tests: ${needs.join('; ')}; or set CHROMIUM_PATH to a Chromium, and TEST_NATS_URL to a running nats-server (or NATS_SERVER_BIN to its binary).\n`,
  );
  process.exit(1);
}

function apt(args) {
  const result = spawnSync('apt-get', args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

const { packages, wrong } = missing();
if (wrong.length > 0) refuse(packages, wrong);
if (packages.length === 0) {
  if (dryRun) process.stdout.write('nothing to install\n');
  process.exit(0);
}
const canInstall = process.getuid?.() === 0 && found('apt-get');
if (!canInstall) refuse(packages, wrong);
if (dryRun) {
  process.stdout.write(`would install: ${packages.join(' ')}\n`);
  process.exit(0);
}
process.stdout.write(`Installing ${packages.join(' ')} for the tests (apt-get)\n`);
if (!apt(['update', '-qq']) || !apt(['install', '-y', '-qq', ...packages])) {
  process.stderr.write(
    `apt-get could not install ${packages.join(' ')}: install them by hand, then run npm test again.\n`,
  );
  process.exit(1);
}
const after = missing();
if (after.packages.length > 0) refuse(after.packages, after.wrong);
