import { TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { TestUser } from '../factories';
import { bootWorker, pushTestEnv, PushTestEnv } from '../push-service/harness';
import { LocalPushService } from '../push-service/push-service';
import { closeAllSockets, ListeningApp, listenTestApp } from './sockets';
import { TestSmtp } from './test-smtp';

/** What an e-mail test runs against: its own database, a server, a worker in-process and a real SMTP server. */
export interface EmailStack {
  t: ListeningApp;
  smtp: TestSmtp;
  worker: TestingModule;
  /** the e-mails recorded for this user, oldest first */
  emailsOf(u: TestUser): Promise<{ kind: string; status: string; reason: string | null; attempts: number }[]>;
  close(): Promise<void>;
}

/**
 * Boots the stack for one e-mail test file. The worker sends through the test's SMTP server as
 * no-reply@parley.test with links to https://parley.test; `overrides` set the windows and retries.
 */
export async function emailStack(name: string, overrides: Record<string, string>): Promise<EmailStack> {
  const push = await LocalPushService.start();
  const smtp = await TestSmtp.start();
  let setup: PushTestEnv | undefined;
  let t: ListeningApp | undefined;
  let worker: TestingModule | undefined;
  const close = async () => {
    closeAllSockets();
    await worker?.close();
    await t?.close();
    await smtp.stop();
    await push.stop();
    await setup?.drop();
  };
  try {
    setup = await pushTestEnv(name, push, {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'Parley <no-reply@parley.test>',
      PUBLIC_URL: 'https://parley.test',
      EMAIL_SCAN_MS: '200',
      EMAIL_BACKOFF_MS: '200',
      ...overrides,
    });
    t = await listenTestApp(setup.env);
    worker = await bootWorker(setup.env);
  } catch (err) {
    await close();
    throw err;
  }
  const db = t.app.get(DataSource);
  return {
    t,
    smtp,
    worker,
    emailsOf: (u) =>
      db.query(`SELECT kind, status, reason, attempts FROM email_message WHERE user_id = $1 ORDER BY id`, [u.user.id]) as Promise<
        { kind: string; status: string; reason: string | null; attempts: number }[]
      >,
    close,
  };
}
