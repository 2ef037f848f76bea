import type { INestApplication } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import { AppConfig } from '#shared/config/config.schema';
import { APP_CONFIG } from '#shared/config/config.module';
import { SocketDrain } from '../../realtime/socket-drain';
import { DrainState } from './drain-state';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SIGTERM drains, then closes: readiness answers 503 at once; after DRAIN_GRACE_MS (for a load balancer to
 * notice) the sockets are sent elsewhere over DRAIN_SPREAD_MS, each once it owes no acknowledgement; then the
 * application closes as on any other signal (in-flight requests and insert batches finish, connections close).
 * Closing is bounded by SHUTDOWN_TIMEOUT_MS. A second SIGTERM closes at once. The other signals close at once (app.setup.ts).
 */
export function drainOnSigterm(app: INestApplication): void {
  const logger = new Logger('Drain');
  const config = app.get<AppConfig>(APP_CONFIG);
  let closing: Promise<void> | null = null;
  const startClosing = () => {
    // A shutdown hook that never settles (a connection that hangs) must not keep a drained node running.
    setTimeout(() => {
      logger.error(`closing took longer than ${config.SHUTDOWN_TIMEOUT_MS} ms; exiting anyway`);
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS).unref();
    return app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'closing after the drain failed');
        process.exit(1);
      },
    );
  };
  const close = () => (closing ??= startClosing());
  process.once('SIGTERM', () => {
    process.once('SIGTERM', () => void close());
    app.get(DrainState).begin();
    logger.log('SIGTERM: draining (readiness 503)');
    void sleep(config.DRAIN_GRACE_MS)
      .then(() => app.get(SocketDrain).drain(config.DRAIN_SPREAD_MS))
      .catch((err: unknown) => logger.error({ err }, 'drain failed; closing'))
      .then(close);
  });
}
