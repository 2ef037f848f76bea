import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScript } from '../utils/scripts';

const summarise = (args: string[]) => runScript('scripts/bench/profile-summary.mts', args, 30_000);

const SERVER = 'file:///app/dist/server/src';
const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({ id, callFrame: { functionName, url }, children });

/**
 * A profile ten seconds long, one sample a second: a `writev` system call under the fan-out's socket writes, the
 * fan-out's own JavaScript, idle time and a frame of no part of the message path. The last sample falls after the window.
 */
function profile() {
  const nodes = [
    frame(1, '(root)', '', [2, 3, 6]),
    frame(2, '(idle)', ''),
    frame(3, 'release', `${SERVER}/fanout/socket-write-batch.js`, [4, 5]),
    frame(4, 'writev', ''),
    frame(5, 'webSocketTextFrame', `${SERVER}/fanout/socket-write-batch.js`),
    frame(6, 'setupSomething', 'node:internal/bootstrap'),
  ];
  //             t = 1  2  3  4  5  6  7  8  9 10 s
  const samples = [4, 4, 2, 5, 4, 2, 5, 6, 4, 4];
  return { nodes, startTime: 0, endTime: 10e6, samples, timeDeltas: samples.map(() => 1e6) };
}

/** `npm run profile:summary` as an operator runs it on a server's profile, and on what is not one. */
describe('npm run profile:summary', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'parley-profile-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('puts each busy sample of the window in the first part of the message path its stack shows, as shares and µs per message', async () => {
    const file = join(dir, 'server.cpuprofile');
    writeFileSync(file, JSON.stringify(profile()));

    // The window is t = 1…9 s: 9 samples, 2 of them idle.
    const run = await summarise([file, '--last', '8', '--skip-end', '1', '--per-message-us', '700']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const line = (part: string) =>
      run.stdout
        .split('\n')
        .find((l) => l.endsWith(part))
        ?.trim();
    expect(run.stdout).toContain('7 busy samples (78 % of the window)');
    expect(line('kernel: socket writes (to clients, Redis, Postgres)')).toBe('57.1 %   400 µs/msg  kernel: socket writes (to clients, Redis, Postgres)');
    expect(line('fan-out: reading the stream or inbox, writing to sockets')).toBe(
      '28.6 %   200 µs/msg  fan-out: reading the stream or inbox, writing to sockets',
    );
    expect(line('other')).toBe('14.3 %   100 µs/msg  other');
    expect(line('garbage collection')).toBe('0.0 %     0 µs/msg  garbage collection');
  });

  it('answers a missing or unreadable profile and bad options with the usage and exit code 1, not a stack trace', async () => {
    const notJson = join(dir, 'notes.txt');
    writeFileSync(notJson, 'not a profile');
    const notProfile = join(dir, 'other.json');
    writeFileSync(notProfile, '{"nodes": 3}');

    const cases: [string[], string][] = [
      [[], 'usage: npm run profile:summary -- <file.cpuprofile>'],
      [['--help'], 'unknown argument --help'],
      [[join(dir, 'missing.cpuprofile')], 'cannot read'],
      [[notJson], 'is not a V8 CPU profile (not JSON)'],
      [[notProfile], 'is not a V8 CPU profile (no nodes, samples and timeDeltas)'],
      [[notProfile, '--last'], '--last needs a number ≥ 0'],
      [[notProfile, '--per-message-us', 'many'], '--per-message-us needs a number ≥ 0'],
    ];
    for (const [args, message] of cases) {
      const run = await summarise(args);
      expect({ args, code: run.code, stdout: run.stdout }).toEqual({ args, code: 1, stdout: '' });
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
