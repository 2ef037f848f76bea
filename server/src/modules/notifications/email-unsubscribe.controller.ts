import { Controller, HttpCode, HttpStatus, Inject, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiGoneResponse, ApiNoContentResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { readUnsubscribe } from '#shared/notifications/unsubscribe-token';
import { Public } from '../../common/decorators/public.decorator';
import { AppError } from '../../common/errors';

export const UnsubscribeError = {
  Invalid: 'NOTIFICATIONS.UNSUBSCRIBE.INVALID',
  Expired: 'NOTIFICATIONS.UNSUBSCRIBE.EXPIRED',
  Used: 'NOTIFICATIONS.UNSUBSCRIBE.USED',
} as const;

/**
 * RFC 8058 one-click unsubscribe: the mail client POSTs to the List-Unsubscribe URL (body
 * `List-Unsubscribe=One-Click`, not needed here: the signed token says whose e-mail of which kind). A token works
 * once, until it expires; forged, expired or used again: a clear error and nothing changed.
 */
@ApiTags('notifications')
@Controller('email')
export class EmailUnsubscribeController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  @Public()
  @Post('unsubscribe')
  @HttpCode(204)
  @ApiOperation({ summary: 'Switches e-mail off for the kind the signed token names (the link in every e-mail); no access token' })
  @ApiQuery({ name: 'token', type: String })
  @ApiNoContentResponse()
  @ApiBadRequestResponse({ description: `${UnsubscribeError.Invalid}: forged or malformed` })
  @ApiGoneResponse({ description: `${UnsubscribeError.Expired}` })
  @ApiConflictResponse({ description: `${UnsubscribeError.Used}: the token was used before` })
  async unsubscribe(@Query('token') token: unknown): Promise<void> {
    const claim = typeof token === 'string' && token.length <= 1000 ? readUnsubscribe(this.config.JWT_SECRET, token) : 'invalid';
    if (claim === 'invalid') throw new AppError(HttpStatus.BAD_REQUEST, UnsubscribeError.Invalid);
    if (claim === 'expired') throw new AppError(HttpStatus.GONE, UnsubscribeError.Expired);
    const column = `email_${claim.kind}`;
    await this.db.transaction(async (tx) => {
      const fresh: unknown[] = await tx.query(`INSERT INTO email_unsubscribe_used (nonce) VALUES ($1) ON CONFLICT DO NOTHING RETURNING nonce`, [claim.nonce]);
      if (fresh.length === 0) throw new AppError(HttpStatus.CONFLICT, UnsubscribeError.Used);
      await tx.query(
        `INSERT INTO notification_setting (user_id, ${column}) SELECT id, false FROM "user" WHERE id = $1
         ON CONFLICT (user_id) DO UPDATE SET ${column} = false, updated_at = now()`,
        [claim.userId],
      );
    });
  }
}
