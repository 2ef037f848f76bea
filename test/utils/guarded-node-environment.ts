import { TestEnvironment } from 'jest-environment-node';
import { pause } from './wait';

/** How long the file's last moments (an app closing, a timer firing) get to reject before the file is judged. */
const SETTLE_MS = 50;

/**
 * The server tests' environment: an unhandled promise rejection anywhere in a test file fails it.
 *
 * While tests and hooks run, jest-circus owns the process's rejection handlers and fails the test that owns
 * the promise. Outside that window (while the file loads, and after its last afterAll until the environment
 * is torn down) nobody did: a late rejection crashed the worker after the file was reported as passed, or
 * was silently dropped when another file's handlers happened to be installed. This environment records
 * those and fails the file, naming them. It listens on the real process (the sandbox has a copy whose
 * listeners never fire) and only between setup and teardown, so it never swallows anything itself.
 */
export default class GuardedNodeEnvironment extends TestEnvironment {
  private readonly unhandled: unknown[] = [];
  private readonly record = (reason: unknown): void => {
    this.unhandled.push(reason);
  };

  override async setup(): Promise<void> {
    await super.setup();
    process.on('unhandledRejection', this.record);
  }

  override async teardown(): Promise<void> {
    await pause(SETTLE_MS);
    process.off('unhandledRejection', this.record);
    await super.teardown();
    if (this.unhandled.length) {
      const reasons = this.unhandled.map((r) => (r instanceof Error ? (r.stack ?? r.message) : String(r))).join('\n\n');
      throw new Error(`${this.unhandled.length} unhandled promise rejection(s) outside the tests of this file:\n${reasons}`);
    }
  }
}
