/**
 * A real Chromium for the explorer's tests, driven by playwright-core (no browser download:
 * Debian's `chromium` package, which .ci/run installs). In CI (CI=true) a missing browser fails
 * the suite; elsewhere the suite is skipped with the reason printed.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Chromium, or undefined (with the reason printed) when it is absent outside CI. */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM_PATH)) {
    const reason = `no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
    if (process.env.CI) throw new Error(`${reason}: the explorer's browser tests must run in CI`);
    console.log(`    skipped: ${reason}`);
    return undefined;
  }
  // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', ...extraArgs] });
}
