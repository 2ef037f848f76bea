import { createClient } from 'redis';
import { WORKER_HEARTBEAT_KEY } from '#shared/contracts/queues';

/** Container health check: exits 0 while the worker pool's heartbeat key is alive (it expires after three intervals). */
async function check(): Promise<boolean> {
  const url = process.env.REDIS_URL;
  if (!url) return false;
  const client = createClient({ url, socket: { connectTimeout: 3000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.exists((process.env.REDIS_PREFIX || 'parley:') + WORKER_HEARTBEAT_KEY.join(':'))) === 1;
  } finally {
    if (client.isOpen) await client.close().catch(() => undefined);
  }
}

check().then(
  (alive) => process.exit(alive ? 0 : 1),
  () => process.exit(1),
);
