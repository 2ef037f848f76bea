import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import type { AuthUser } from '#shared/contracts/auth';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { CodeParamPipe } from '../../common/pipes';
import { ChatMuteDto, ChatNotificationsDto, NotificationSettingsDto } from './dto/notifications.dto';
import { NotificationSettingsService } from './notification-settings.service';

@ApiTags('notifications')
@ApiBearerAuth()
@Controller()
export class NotificationSettingsController {
  constructor(private readonly settings: NotificationSettingsService) {}

  @Get('me/notifications')
  @ApiOperation({ summary: "The caller's notification switches (per channel and kind) and quiet hours for web push" })
  @ApiOkResponse({ type: NotificationSettingsDto })
  get(@CurrentUser() user: AuthUser): Promise<NotificationSettingsDto> {
    return this.settings.get(user);
  }

  @Put('me/notifications')
  @ApiOperation({ summary: 'Replaces every switch and the quiet hours at once (validated whole; nothing changes on 422)' })
  @ApiOkResponse({ type: NotificationSettingsDto })
  save(@CurrentUser() user: AuthUser, @Body() dto: NotificationSettingsDto): Promise<NotificationSettingsDto> {
    return this.settings.save(user, dto);
  }

  @Put('message/groups/:id/notifications')
  @ApiOperation({ summary: 'Mutes the chat for the caller (until a future time: a snooze; else until unmuted), or unmutes it' })
  @ApiOkResponse({ type: ChatNotificationsDto })
  @ApiNotFoundResponse({ description: 'not a chat of the caller' })
  @ApiUnprocessableEntityResponse({ description: 'NOTIFICATIONS.SNOOZE_IN_PAST, NOTIFICATIONS.SNOOZE_TOO_LONG' })
  muteChat(@CurrentUser() user: AuthUser, @Param('id', CodeParamPipe) id: string, @Body() dto: ChatMuteDto): Promise<ChatNotificationsDto> {
    return this.settings.muteChat(user, id, dto);
  }
}
