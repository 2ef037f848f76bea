import { AddressInfo } from 'node:net';
import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on a free port; every accepted e-mail parsed. Addresses with "bounce" are refused (550),
 * `tempFailures` answers 451 that many times (a server briefly unable), and stop()/start() take it away and
 * bring it back on the same port (a server that does not answer at all meanwhile).
 */
export class TestSmtp {
  readonly received: ParsedMail[] = [];
  /** 4xx answers still to give before accepting */
  tempFailures = 0;
  private server: SMTPServer | null = null;
  port = 0;

  static async start(): Promise<TestSmtp> {
    const smtp = new TestSmtp();
    await smtp.start();
    return smtp;
  }

  /** Listens (again) on its port, or on a free one the first time. */
  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // stop() cuts the worker's pooled connections at once rather than waiting for them (30 s by default)
      closeTimeout: 100,
      onRcptTo: (address, _session, callback) => {
        if (address.address.includes('bounce')) return callback(Object.assign(new Error('no such mailbox'), { responseCode: 550 }));
        if (this.tempFailures > 0) {
          this.tempFailures -= 1;
          return callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
        }
        callback();
      },
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.received.push(mail);
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  get running(): boolean {
    return this.server !== null;
  }

  to(address: string): ParsedMail[] {
    return this.received.filter((m) => [m.to].flat().some((t) => t?.value.some((v) => v.address === address)));
  }

  /** The value of a header line as sent (folding undone). */
  static header(mail: ParsedMail, key: string): string | undefined {
    return mail.headerLines.find((h) => h.key === key)?.line.replace(/\r?\n[ \t]+/g, '');
  }

  stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    return server ? new Promise((resolve) => server.close(() => resolve())) : Promise.resolve();
  }
}
