import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

interface Row {
  fault: string;
  sends: number;
  acked: number;
  lost: number;
  duplicated: number;
  outOfOrder: number;
  liveMissed: number;
  quietProbes: number;
  unreadMismatches: number;
  recoveryMs: number | null;
  exits: string[];
  unhandled: string[];
  healthCodes: Record<string, number>;
}

interface Result {
  rows: Row[];
  stray: string[];
}

/**
 * The fault suite (npm run chaos), shortened: a server SIGKILL and a Redis restart against its own Redis,
 * PostgreSQL, two servers and a worker, on ports 4420-4424 (npm run chaos alone uses 4410-4414).
 */
describe('fault suite (npm run chaos, shortened)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-chaos-test-'));
  const out = path.join(dir, 'result.json');
  let exit: { code: number | null; output: string };
  let result: Result;
  const row = (fault: string) => result.rows.find((r) => r.fault === fault)!;

  beforeAll(async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/chaos/chaos.mts',
        '--quick',
        '--faults',
        'server-kill,redis-restart',
        '--sockets',
        '20',
        '--rate',
        '20',
        '--before',
        '2',
        '--after',
        '3',
        '--down',
        '3',
        '--port-base',
        '4420',
        '--json',
        out,
      ],
      { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    exit = { code, output };
    if (!fs.existsSync(out)) throw new Error(`the suite wrote no result (exit ${code}):\n${output.slice(-4000)}`);
    result = JSON.parse(fs.readFileSync(out, 'utf8')) as Result;
  }, 400_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('ran both faults, cleaned up after itself, and left no Redis key outside the prefix', () => {
    expect(exit.code === 0 || exit.code === 1).toBe(true);
    expect(result.rows.map((r) => r.fault)).toEqual(['server-kill', 'redis-restart']);
    expect(result.stray).toEqual([]);
    expect(exit.output).toMatch(/\| fault +\| sends/);
    expect(exit.output).toMatch(/cleaning up/);
    const temp = /temp folder (\S+)\)/.exec(exit.output)?.[1];
    expect(temp).toBeDefined();
    expect(fs.existsSync(temp!)).toBe(false);
  });

  it.each(['server-kill', 'redis-restart'])('%s: every send acknowledged, none lost or duplicated; health only 200/503; recovered', (fault) => {
    const r = row(fault);
    expect(r.sends).toBeGreaterThan(0);
    expect({ acked: r.acked, lost: r.lost, duplicated: r.duplicated }).toEqual({ acked: r.sends, lost: 0, duplicated: 0 });
    expect(Object.keys(r.healthCodes).filter((c) => !['0', '200', '503'].includes(c))).toEqual([]);
    expect(r.recoveryMs).not.toBeNull();
    expect(Number.isFinite(r.recoveryMs)).toBe(true);
  });

  it.each(['server-kill', 'redis-restart'])(
    '%s: no process exit, none out of order, quiet chats delivered within 10 s, no unhandled rejection, pushed unread counts equal REST',
    (fault) => {
      const r = row(fault);
      expect(r.quietProbes).toBeGreaterThan(0);
      const { exits, outOfOrder, liveMissed, unhandled, unreadMismatches } = r;
      expect({ exits, outOfOrder, liveMissed, unhandled, unreadMismatches }).toEqual({
        exits: [],
        outOfOrder: 0,
        liveMissed: 0,
        unhandled: [],
        unreadMismatches: 0,
      });
    },
  );
});
