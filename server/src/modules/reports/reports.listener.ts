import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ReportResolvedEvent } from '#shared/contracts/events';
import { DomainEvents } from '../../common/events/domain-events';
import { SocketEmitter } from '../../realtime/socket-emitter.service';

/**
 * Tells the reporter what became of their report (`report:resolved`; the report's status in "my reports" says
 * the same to one who was away), and a warned user that they were warned (`moderation:warning`).
 */
@Injectable()
export class ReportsListener implements OnModuleInit, OnModuleDestroy {
  private off?: () => void;

  constructor(
    private readonly events: DomainEvents,
    private readonly emitter: SocketEmitter,
  ) {}

  onModuleInit(): void {
    this.off = this.events.on('report.resolved', (e) => this.resolved(e));
  }

  onModuleDestroy(): void {
    this.off?.();
  }

  private resolved(e: ReportResolvedEvent): void {
    this.emitter.toUser(e.reporterCode, 'report:resolved', e.payload);
    if (e.payload.action === 'warn' && e.warnsReported)
      this.emitter.toUser(e.reportedCode, 'moderation:warning', { code: e.payload.code, reason: e.payload.reason, at: e.at });
  }
}
