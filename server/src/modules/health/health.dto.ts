import { ApiProperty } from '@nestjs/swagger';

export class PushStatsDto {
  @ApiProperty({ description: 'notification jobs waiting to run' }) waiting: number;
  @ApiProperty({ description: 'jobs in their delay: chat pushes in their grace period, retries after 429/5xx' }) delayed: number;
  @ApiProperty() active: number;
  @ApiProperty({ description: 'pushes accepted by push services (all workers, since the counters began)' }) sent: number;
  @ApiProperty({ description: 'pushes given up: rejected, or attempts exhausted' }) failed: number;
  @ApiProperty({ description: 'subscriptions removed: 404/410 from the push service, or pruned as unused' }) removed: number;
  @ApiProperty({ description: 'recipients not pushed to: online, read, deleted, superseded, muted, no subscription' }) skipped: number;
}

export class HealthResponseDto {
  @ApiProperty({ enum: ['ok', 'degraded'] }) status: 'ok' | 'degraded';
  @ApiProperty({ enum: ['up', 'down'] }) postgres: 'up' | 'down';
  @ApiProperty({ enum: ['up', 'down'] }) redis: 'up' | 'down';
  @ApiProperty({ enum: ['up', 'down', 'unknown'], description: 'a worker sent a heartbeat within three intervals; not part of readiness' })
  worker: 'up' | 'down' | 'unknown';
  @ApiProperty({ type: PushStatsDto, nullable: true, description: 'the notifications queue and push counters; null while Redis does not answer' })
  notifications: PushStatsDto | null;
  @ApiProperty({ description: 'seconds since the process started' }) uptime: number;
}

export class LivenessResponseDto {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
  @ApiProperty({ description: 'seconds since the process started' }) uptime: number;
}

export class ReadinessResponseDto {
  @ApiProperty({ enum: ['ready', 'not-ready', 'draining'], description: 'draining: the process got SIGTERM and is finishing its work' })
  status: 'ready' | 'not-ready' | 'draining';
  @ApiProperty({ enum: ['up', 'down'] }) postgres: 'up' | 'down';
  @ApiProperty({ enum: ['up', 'down'] }) redis: 'up' | 'down';
}
