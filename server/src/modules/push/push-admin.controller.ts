import { Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { RequireAnyRole } from '../../common/decorators/roles.decorator';
import { pageOf } from '../../common/dto/page-query.dto';
import { AuthUser } from '#shared/contracts/auth';
import { Role } from '#shared/contracts/roles';
import { NOTIFICATIONS_PAGE_SIZE, NotificationsPageDto, NotificationsQueryDto, QueueBoardSessionDto } from './dto/push.dto';
import { PushService } from './push.service';
import { QUEUE_BOARD_COOKIE, QUEUE_BOARD_PATH, QueueBoard } from './queue-board';

@ApiTags('admin')
@ApiBearerAuth()
@Controller('admin')
export class PushAdminController {
  constructor(
    private readonly push: PushService,
    private readonly board: QueueBoard,
  ) {}

  @Get('notifications')
  @RequireAnyRole(Role.InstanceAdmin, Role.GlobalAdmin)
  @ApiOperation({
    summary:
      "A user's notification lifecycle, newest first: queued, skipped (with the reason), sent, retrying, failed (with the push service's status), subscription removed. Instance admins: their instance's users",
  })
  @ApiOkResponse({ type: NotificationsPageDto })
  notifications(@CurrentUser() user: AuthUser, @Query() query: NotificationsQueryDto): Promise<NotificationsPageDto> {
    const { page, pageSize } = pageOf(query, NOTIFICATIONS_PAGE_SIZE);
    return this.push.notifications(user, query.user, page, pageSize);
  }

  @Post('queues/session')
  @HttpCode(200)
  @RequireAnyRole(Role.GlobalAdmin)
  @ApiOperation({
    summary:
      'Global admins: sets a short-lived httpOnly cookie (QUEUE_BOARD_TTL) that opens the queue dashboard (Bull Board) at /api/admin/queues in this browser',
  })
  @ApiOkResponse({ type: QueueBoardSessionDto })
  session(@CurrentUser() user: AuthUser, @Req() req: Request, @Res({ passthrough: true }) res: Response): QueueBoardSessionDto {
    const { value, expiresAt } = this.board.issue(user.code);
    res.cookie(QUEUE_BOARD_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      secure: req.secure,
      path: QUEUE_BOARD_PATH,
      expires: expiresAt,
    });
    return { url: QUEUE_BOARD_PATH, expiresAt: expiresAt.toISOString() };
  }
}
