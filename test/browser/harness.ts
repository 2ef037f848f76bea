import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createTestApp, type ProviderOverride, type TestApp } from '../utils/create-app';
import { RUN_VAR } from '../utils/test-env';
import { ARTIFACTS, BROWSER_RUN_VAR, CLIENT_DIST } from './paths';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ChromiumBinary {
  executablePath: string;
  args: string[];
  source: string;
}

/** CHROMIUM_PATH, else Debian's /usr/bin/chromium, else the binary @sparticuz/chromium ships. Never skips. */
export function findChromium(): ChromiumBinary {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH is set to ${fromEnv}, which does not exist`);
    return { executablePath: fromEnv, args: FLAGS, source: 'CHROMIUM_PATH' };
  }
  if (existsSync('/usr/bin/chromium')) return { executablePath: '/usr/bin/chromium', args: FLAGS, source: '/usr/bin/chromium' };
  try {
    // The package is ESM-only; a child process imports it (jest's CommonJS runtime cannot).
    const out = execFileSync(
      process.execPath,
      ['-e', "import('@sparticuz/chromium').then(async (m) => console.log(JSON.stringify({ path: await m.default.executablePath(), args: m.default.args })))"],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const { path, args } = JSON.parse(out.trim().split('\n').pop() as string) as { path: string; args: string[] };
    return { executablePath: path, args: [...args, '--no-first-run', '--disable-sync'], source: '@sparticuz/chromium' };
  } catch (err) {
    throw new Error(
      "No Chromium for the browser tests: set CHROMIUM_PATH, install Debian's chromium (/usr/bin/chromium), " +
        `or run npm ci so @sparticuz/chromium provides one (${(err as Error).message})`,
      { cause: err },
    );
  }
}

export interface BrowserHarness {
  baseUrl: string;
  app: TestApp;
  open: (options?: { width?: number; height?: number }) => Promise<{ context: BrowserContext; page: Page }>;
  close: () => Promise<void>;
}

/**
 * Boots the real server (serving the freshly built client) on a free port, or the given one, and opens fresh
 * Chromium profiles; `env` adds config (e.g. AUTH_PROVIDERS), `providers` replaces Nest providers (e.g. a clock).
 */
export async function startHarness({
  env = {},
  port: wanted = 0,
  providers = [],
}: { env?: Record<string, string>; port?: number; providers?: ProviderOverride[] } = {}): Promise<BrowserHarness> {
  const ownRun = process.env[BROWSER_RUN_VAR];
  if (ownRun) process.env[RUN_VAR] = ownRun;
  if (!existsSync(join(CLIENT_DIST, 'index.html'))) throw new Error(`no client build at ${CLIENT_DIST}: the browser project's global setup builds it`);
  const app = await createTestApp({ CLIENT_DIST, ...env }, providers);
  await app.app.listen(wanted, '127.0.0.1');
  const { port } = app.app.getHttpServer().address() as AddressInfo;
  const baseUrl = `http://localhost:${port}`;
  const binary = findChromium();
  const contexts: { context: BrowserContext; dir: string }[] = [];
  mkdirSync(ARTIFACTS, { recursive: true });

  return {
    baseUrl,
    app,
    async open({ width = 1280, height = 800 } = {}) {
      const dir = mkdtempSync(join(tmpdir(), 'parley-chromium-'));
      const context = await chromium.launchPersistentContext(dir, {
        executablePath: binary.executablePath,
        args: binary.args,
        headless: true,
        viewport: { width, height },
        locale: 'en-US',
      });
      contexts.push({ context, dir });
      const page = context.pages()[0] ?? (await context.newPage());
      return { context, page };
    },
    async close() {
      for (const { context, dir } of contexts) {
        await context.close().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      }
      await app.close();
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const file = join(ARTIFACTS, `${name}.png`);
  // Transitions (a notification sliding in, a dialog fading out) are shown as they end, not half-way.
  await page.screenshot({ path: file, fullPage: false, animations: 'disabled' });
  return file;
}
