// The five faults. Each injects its fault into the running stack while traffic flows, sends one message into
// every quiet chat while the fault is on (ctx.sendQuiet), and answers when the fault ended and, where it has
// one, its own recovery measure. The runner measures the rest (canary round trip, losses, counts).
import { sleep, waitUntil } from '../lib/common.mts';
import { redisPing } from '../lib/services.mts';
import type { ChatMessage } from './clients.mts';
import type { Fault, PushUser } from './types.mts';

/** The supervisor's first back-off step: a crashed process is started again after 1 s. */
const SUPERVISOR_RESTART_MS = 1000;

export const FAULTS: Record<string, Fault> = {
  'server-kill': {
    title: 'server SIGKILL',
    async inject({ stack, sendQuiet }) {
      await stack.servers[0].kill('SIGKILL');
      const endedAt = Date.now();
      return {
        endedAt,
        quiet: sendQuiet(),
        // Its clients move to the other server meanwhile; the killed one comes back as under npm start.
        after: async () => {
          await sleep(SUPERVISOR_RESTART_MS);
          stack.servers[0].start();
          await stack.waitHealthy(0, 120_000);
        },
      };
    },
  },

  'redis-restart': {
    title: 'Redis restart',
    async inject({ stack, opts, sendQuiet }) {
      if (opts.redisLoading > 0) await stack.prepareRedisLoading(opts.redisLoading);
      await stack.stopRedis('SIGTERM');
      const quiet = sendQuiet();
      await sleep(opts.down * 1000);
      await stack.startRedis();
      // Up once it answers PING (it refuses commands with LOADING until its data is in).
      await waitUntil(() => redisPing(stack.ports.redis), 60_000, 50);
      return { endedAt: Date.now(), quiet };
    },
  },

  'postgres-restart': {
    title: 'Postgres restart',
    async inject({ stack, opts, sendQuiet }) {
      await stack.stopPostgres();
      const quiet = sendQuiet();
      await sleep(opts.down * 1000);
      await stack.startPostgres();
      return { endedAt: Date.now(), quiet };
    },
  },

  'worker-kill': {
    title: 'worker SIGKILL',
    /** Pushes in flight: the push service holds one push per subscriber, then the worker dies mid-request. */
    async inject({ stack, world, sendQuiet }) {
      const since = Date.now();
      for (const p of world.pushUsers) stack.push.answer(p.sub.id, { status: 201, hold: true });
      await Promise.all(world.pushUsers.map((p) => world.pushSender.send(p.group, `push ${Date.now()}`)));
      const held = () => world.pushUsers.filter((p) => stack.push.arrivalsFor(p.sub.id, 0).some((a) => a.at >= since)).length;
      if (!(await waitUntil(async () => held() === world.pushUsers.length, 60_000, 50))) {
        throw new Error(`only ${held()} of ${world.pushUsers.length} pushes reached the push service before the worker kill`);
      }
      await stack.worker!.kill('SIGKILL');
      const killedAt = Date.now();
      stack.push.release();
      const quiet = sendQuiet();
      await sleep(SUPERVISOR_RESTART_MS);
      stack.worker!.start();
      const delivered = (p: PushUser) => stack.push.arrivalsFor(p.sub.id, 201).find((a) => a.at >= killedAt);
      await waitUntil(async () => world.pushUsers.every(delivered), 90_000, 100);
      const pushDelays = world.pushUsers.map((p) => {
        const arrival = delivered(p);
        return arrival ? arrival.at - killedAt : Infinity;
      });
      return { endedAt: killedAt, quiet, pushDelays, recoveryMs: Math.max(...pushDelays) };
    },
  },

  'client-offline': {
    title: 'client offline',
    /** One client away for opts.offline seconds while at least opts.burst messages arrive in its chat. */
    async inject({ opts, world, sendQuiet }) {
      const away = world.trafficClients[0];
      const group = away.user.groups[0];
      const others = world.trafficClients.filter((c) => c !== away && c.user.groups.includes(group));
      away.goOffline();
      const quiet = sendQuiet();
      const started = Date.now();
      const perSecond = Math.ceil((opts.burst * 1.05) / opts.offline);
      let sent = 0;
      const sends: Promise<ChatMessage>[] = [];
      while (Date.now() - started < opts.offline * 1000) {
        for (let k = 0; k < perSecond; k++) sends.push(others[sent++ % others.length].send(group, `burst ${sent}`));
        await sleep(1000);
      }
      const stored = await Promise.all(sends);
      away.goOnline();
      const endedAt = Date.now();
      const lastSeq = Math.max(0, ...stored.map((m) => m.seq));
      await waitUntil(async () => away.views.get(group)!.contiguous >= lastSeq, 120_000, 50);
      return { endedAt, quiet, recoveryMs: Date.now() - endedAt, burst: sent };
    },
  },
};

export const FAULT_ORDER = ['server-kill', 'redis-restart', 'postgres-restart', 'worker-kill', 'client-offline'];
