import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/decorators/public.decorator';
import { HealthResponseDto, LivenessResponseDto, ReadinessResponseDto } from './health.dto';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly healthService: HealthService) {}

  /** Liveness plus readiness of Postgres and Redis: 200 when both answer, else 503 with the same body. */
  @Public()
  @Get()
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness plus readiness of Postgres and Redis: 503 with the same body when either does not answer' })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiServiceUnavailableResponse({ type: HealthResponseDto })
  async health(@Res({ passthrough: true }) res: Response): Promise<HealthResponseDto> {
    const report = await this.healthService.report();
    if (report.status !== 'ok') res.status(503);
    return report;
  }

  /** Liveness for an orchestrator: 200 while the process answers at all; dependencies are not asked. */
  @Public()
  @Get('live')
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness: 200 while the process answers at all' })
  @ApiOkResponse({ type: LivenessResponseDto })
  live(): LivenessResponseDto {
    return this.healthService.liveness();
  }

  /** Readiness for a load balancer: 503 while Postgres or Redis does not answer, and from SIGTERM on (draining). */
  @Public()
  @Get('ready')
  @HttpCode(200)
  @ApiOperation({ summary: 'Readiness: 503 while Postgres or Redis does not answer, and while draining' })
  @ApiOkResponse({ type: ReadinessResponseDto })
  @ApiServiceUnavailableResponse({ type: ReadinessResponseDto })
  async ready(@Res({ passthrough: true }) res: Response): Promise<ReadinessResponseDto> {
    const report = await this.healthService.readiness();
    if (report.status !== 'ready') res.status(503);
    return report;
  }
}
