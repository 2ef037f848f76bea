import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiConflictResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { AuthUser } from '#shared/contracts/auth';
import { RegisterPushDto, UnregisterPushDto } from './dto/push.dto';
import { PushService } from './push.service';

@ApiTags('web push')
@ApiBearerAuth()
@Controller('User/WebPush')
export class PushController {
  constructor(private readonly push: PushService) {}

  @Get('Config')
  @ApiOperation({ summary: 'The VAPID public key (base64url) as the plain-text body; 503 while web push is not configured' })
  @ApiOkResponse({ description: 'the VAPID public key', content: { 'text/plain': { schema: { type: 'string' } } } })
  config(@Res({ passthrough: true }) res: Response): string {
    const key = this.push.publicKey();
    res.type('text/plain').setHeader('Cache-Control', 'no-cache');
    return key;
  }

  @Post('Register')
  @HttpCode(204)
  @ApiOperation({
    summary:
      "Registers the browser's whole PushSubscription (endpoint + keys; https endpoints only, in production not to private hosts). One row per endpoint: registering it again with the same keys (the same browser) moves it to the caller; another user's endpoint under other keys is 409 SHARED.PUSH.ENDPOINT_TAKEN, nothing changed",
  })
  @ApiNoContentResponse()
  @ApiConflictResponse({ description: "SHARED.PUSH.ENDPOINT_TAKEN: another user's endpoint, registered with other keys" })
  async register(@CurrentUser() user: AuthUser, @Body() dto: RegisterPushDto): Promise<void> {
    await this.push.register(user, dto);
  }

  @Post('Unregister')
  @HttpCode(204)
  @ApiOperation({ summary: "Removes the caller's subscription for this endpoint (the client calls it on logout); unknown endpoints are a no-op" })
  @ApiNoContentResponse()
  async unregister(@CurrentUser() user: AuthUser, @Body() dto: UnregisterPushDto): Promise<void> {
    await this.push.unregister(user, dto.endpoint);
  }
}
