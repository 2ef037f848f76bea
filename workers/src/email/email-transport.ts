import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve, join } from 'node:path';
import nodemailer, { Transporter } from 'nodemailer';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';

export interface OutgoingEmail {
  /** our id, kept in the Message-ID and the .eml name */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/** Nodemailer's codes for a connection that failed (and Node's own, should one come through unwrapped). */
const UNREACHABLE_CODES = new Set(['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/**
 * Hands an e-mail to SMTP_URL with Nodemailer (over a pool of EMAIL_SMTP_CONNECTIONS connections, reused from one
 * e-mail to the next), or, without SMTP_URL (development), writes it as a .eml file under
 * EMAIL_DIR. Production refuses to start without SMTP_URL, so no e-mail is ever kept on disk there.
 */
@Injectable()
export class EmailTransport implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('email');
  private readonly smtp: Transporter | null;
  private readonly files: Transporter;
  readonly folder: string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    if (!config.SMTP_URL && config.NODE_ENV === 'production') throw new Error('SMTP_URL must be set in production: e-mail goes through SMTP there');
    this.smtp = config.SMTP_URL ? nodemailer.createTransport({ url: config.SMTP_URL, pool: true, maxConnections: config.EMAIL_SMTP_CONNECTIONS }) : null;
    this.files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    this.folder = resolve(config.EMAIL_DIR);
  }

  onModuleInit(): void {
    if (!this.smtp) this.logger.log(`no SMTP_URL: every e-mail is kept as a .eml file in ${this.folder}`);
  }

  /** Ends the pooled SMTP connections (QUIT) once the queues have stopped sending (after their drain). */
  onApplicationShutdown(): void {
    this.smtp?.close();
  }

  async send(mail: OutgoingEmail): Promise<void> {
    const message = {
      from: this.config.MAIL_FROM,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: mail.headers,
      messageId: `<email-${mail.id}@${new URL(`http://${this.config.MAIL_FROM.replace(/^.*@/, '').replace(/>.*$/, '')}`).hostname}>`,
    };
    if (this.smtp) {
      await this.smtp.sendMail(message);
      return;
    }
    const info = (await this.files.sendMail(message)) as { message: Buffer };
    await mkdir(this.folder, { recursive: true });
    await writeFile(join(this.folder, `${mail.id}.eml`), info.message);
  }

  /**
   * No SMTP answer at all (refused, reset, timed out, no DNS): the server is unreachable, which says nothing
   * about this e-mail, so trying again later spends none of its attempts.
   */
  static unreachable(error: unknown): boolean {
    const { responseCode, code } = error as { responseCode?: number; code?: string };
    return typeof responseCode !== 'number' && typeof code === 'string' && UNREACHABLE_CODES.has(code);
  }

  /** An SMTP answer that will not change on retry (a 5xx: no such mailbox, refused): the e-mail is given up. */
  static permanent(error: unknown): boolean {
    const code = (error as { responseCode?: number }).responseCode;
    return typeof code === 'number' && code >= 500 && code < 600;
  }
}
