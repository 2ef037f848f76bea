import { execFile } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

/** Runs one of the project's TypeScript scripts (`scripts/…`) as `npm run` does, from the project's root, to its end. */
export function runScript(script: string, args: string[], timeoutMs: number): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', join(ROOT, script), ...args], { cwd: ROOT, timeout: timeoutMs }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
