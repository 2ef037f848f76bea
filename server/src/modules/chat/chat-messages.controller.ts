import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { AuthUser } from '#shared/contracts/auth';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { CodeParamPipe } from '../../common/pipes';
import { RateLimitedPerUser } from '../../common/rate-limit/user-rate-limit.guard';
import { ChatMessageEditsService } from './chat-message-edits.service';
import { ChatMessagesService } from './chat-messages.service';
import { EditMessageDto, MarkReadDto, PageMessagesDto, SendMessageDto } from './dto/chat-request.dto';
import { ChatMessageDto, MessagePageDto, ReadResultDto, UnreadCountDto } from './dto/chat-response.dto';
import { ReadMarkerService } from './unread/read-marker.service';
import { AdmittedSend } from './send/send-admission.guard';
import { UnreadService } from './unread/unread.service';

@ApiTags('chat')
@ApiBearerAuth()
@Controller('message')
export class ChatMessagesController {
  constructor(
    private readonly messages: ChatMessagesService,
    private readonly edits: ChatMessageEditsService,
    private readonly unread: UnreadService,
    private readonly readMarker: ReadMarkerService,
  ) {}

  @Get('UnreadCount')
  @ApiOperation({ summary: 'Unread messages: the total and per group (only groups with any)' })
  @ApiOkResponse({ type: UnreadCountDto })
  unreadCount(@CurrentUser() user: AuthUser): Promise<UnreadCountDto> {
    return this.unread.counts(user);
  }

  @Post('groups/:id/messages')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A page of 50 messages, oldest first: the newest (marks the chat read), older than time/beforeSeq, or after afterSeq',
  })
  @ApiOkResponse({ type: MessagePageDto })
  @ApiForbiddenResponse({ description: 'MODERATION.WATCH_REQUIRED: a moderator not in the chat reads it only while watching it (room:watch)' })
  page(@CurrentUser() user: AuthUser, @Param('id', CodeParamPipe) id: string, @Body() dto: PageMessagesDto): Promise<MessagePageDto> {
    return this.messages.page(user, id, dto);
  }

  @Post('groups/:id/read')
  @HttpCode(200)
  @ApiOperation({ summary: 'Moves the read marker forward to seq' })
  @ApiOkResponse({ type: ReadResultDto })
  async markRead(@CurrentUser() user: AuthUser, @Param('id', CodeParamPipe) id: string, @Body() dto: MarkReadDto): Promise<ReadResultDto> {
    const readSeq = await this.readMarker.markRead(user, id, dto.seq);
    return { readSeq, unread: await this.unread.counts(user) };
  }

  @Post('groups/:id')
  @RateLimitedPerUser('chat-send')
  @AdmittedSend()
  @ApiOperation({
    summary: 'Sends a message; a repeated clientKey returns the stored message instead of a duplicate; replyToId quotes a message of the group',
  })
  @ApiCreatedResponse({ type: ChatMessageDto })
  @ApiUnprocessableEntityResponse({ description: 'VALIDATION.MESSAGE.EMPTY; VALIDATION.REPLY_TO.NOT_FOUND: no such message in this group' })
  send(@CurrentUser() user: AuthUser, @Param('id', CodeParamPipe) id: string, @Body() dto: SendMessageDto): Promise<ChatMessageDto> {
    return this.messages.send(user, id, dto);
  }

  @Patch('groups/:id/messages/:code')
  @RateLimitedPerUser('chat-send')
  @ApiOperation({ summary: "Edits the text of one's own text message (validated like a send); pushed as message:updated" })
  @ApiOkResponse({ type: ChatMessageDto })
  @ApiForbiddenResponse({ description: 'not the author' })
  @ApiConflictResponse({ description: 'CHAT.MESSAGE.DELETED: the message was deleted; CHAT.MESSAGE.NOT_EDITABLE: a system message or offer note' })
  @ApiUnprocessableEntityResponse({ description: 'VALIDATION.MESSAGE.EMPTY (no text and no files), or too long' })
  edit(
    @CurrentUser() user: AuthUser,
    @Param('id', CodeParamPipe) id: string,
    @Param('code', CodeParamPipe) code: string,
    @Body() dto: EditMessageDto,
  ): Promise<ChatMessageDto> {
    return this.edits.edit(user, id, code, dto);
  }

  @Delete('groups/:id/messages/:code')
  @HttpCode(204)
  @ApiOperation({ summary: 'Deletes a message (author or moderator): it stays as a deleted marker' })
  @ApiNoContentResponse()
  delete(@CurrentUser() user: AuthUser, @Param('id', CodeParamPipe) id: string, @Param('code', CodeParamPipe) code: string): Promise<void> {
    return this.messages.delete(user, id, code);
  }
}
