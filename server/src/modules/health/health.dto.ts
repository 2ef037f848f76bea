import { ApiProperty } from '@nestjs/swagger';

export class HealthResponseDto {
  @ApiProperty({ enum: ['ok', 'degraded'] }) status: 'ok' | 'degraded';
  @ApiProperty({ enum: ['up', 'down'] }) postgres: 'up' | 'down';
  @ApiProperty({ enum: ['up', 'down'] }) redis: 'up' | 'down';
  @ApiProperty({ enum: ['up', 'down', 'unknown'], description: 'a worker sent a heartbeat within three intervals; not part of readiness' })
  worker: 'up' | 'down' | 'unknown';
  @ApiProperty({ description: 'seconds since the process started' }) uptime: number;
}
