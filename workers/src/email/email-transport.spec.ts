import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '#shared/config/config.schema';
import { EmailTransport } from './email-transport';

const config = (extra: Partial<AppConfig>) => ({ NODE_ENV: 'development', MAIL_FROM: 'Parley <no-reply@parley.test>', ...extra }) as AppConfig;

describe('EmailTransport', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-mail-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps every e-mail as a .eml file under EMAIL_DIR when no SMTP_URL is set', async () => {
    const transport = new EmailTransport(config({ EMAIL_DIR: join(dir, 'mail') }));
    await transport.send({
      id: '42',
      to: 'bob@example.test',
      subject: 'You have unread messages in 1 chat',
      text: 'plain',
      html: '<p>html</p>',
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    expect(await readdir(join(dir, 'mail'))).toEqual(['42.eml']);
    const eml = await readFile(join(dir, 'mail', '42.eml'), 'utf8');
    expect(eml).toContain('Subject: You have unread messages in 1 chat');
    expect(eml).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(eml).toContain('To: bob@example.test');
  });

  it('refuses to start in production without SMTP_URL', () => {
    expect(() => new EmailTransport(config({ NODE_ENV: 'production', EMAIL_DIR: dir }))).toThrow(/SMTP_URL must be set in production/);
  });

  it('treats an SMTP 5xx as permanent and anything else as worth a retry', () => {
    expect(EmailTransport.permanent(Object.assign(new Error('no such mailbox'), { responseCode: 550 }))).toBe(true);
    expect(EmailTransport.permanent(Object.assign(new Error('later'), { responseCode: 451 }))).toBe(false);
    expect(EmailTransport.permanent(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false);
  });

  it('tells a server that did not answer from one that answered, and from a local error', () => {
    expect(EmailTransport.unreachable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET' }))).toBe(true);
    expect(EmailTransport.unreachable(Object.assign(new Error('Greeting never received'), { code: 'ETIMEDOUT' }))).toBe(true);
    expect(EmailTransport.unreachable(Object.assign(new Error('later'), { code: 'EENVELOPE', responseCode: 451 }))).toBe(false);
    expect(EmailTransport.unreachable(Object.assign(new Error('No recipients defined'), { code: 'EENVELOPE' }))).toBe(false);
  });
});
