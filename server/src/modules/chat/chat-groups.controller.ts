import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '#shared/contracts/auth';
import { TARGET_GROUP_TYPES } from '#shared/contracts/chat';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { CodeParamPipe, IntInSetPipe } from '../../common/pipes';
import { RateLimitedPerUser } from '../../common/rate-limit/user-rate-limit.guard';
import { ChatGroupsService } from './chat-groups.service';
import { ChatMessagesService } from './chat-messages.service';
import {
  AddParticipantsDto,
  CreateTargetGroupDto,
  GroupListQueryDto,
  PatchGroupDto,
  StartChatDto,
  TargetParticipantsDto,
  UserListDto,
  GroupLangQueryDto,
} from './dto/chat-request.dto';
import { ChatGroupDto, ChatGroupPageDto, GroupLookupDto, StartChatResultDto } from './dto/chat-response.dto';

const TargetType = new IntInSetPipe('TARGET_TYPE', TARGET_GROUP_TYPES);

@ApiTags('chat')
@ApiBearerAuth()
@Controller('message')
export class ChatGroupsController {
  constructor(
    private readonly groups: ChatGroupsService,
    private readonly messages: ChatMessagesService,
  ) {}

  @Post('by-users')
  @HttpCode(200)
  @ApiOperation({ summary: 'The direct chat between the caller and exactly these users, or null' })
  @ApiOkResponse({ type: GroupLookupDto })
  async byUsers(@CurrentUser() user: AuthUser, @Body() dto: UserListDto): Promise<GroupLookupDto> {
    return { group: await this.groups.findByUsers(user, dto.userList) };
  }

  @Get('by-target/:targetType/:target')
  @ApiOperation({ summary: 'The chat of a target (job faq 2, job 3, job offer 4, project item 5), or null' })
  @ApiOkResponse({ type: GroupLookupDto })
  async byTarget(
    @CurrentUser() user: AuthUser,
    @Param('targetType', TargetType) targetType: number,
    @Param('target', CodeParamPipe) target: string,
  ): Promise<GroupLookupDto> {
    return { group: await this.groups.findByTarget(user, targetType, target) };
  }

  @Post('groups/target/:targetType/:target')
  @ApiOperation({ summary: 'Opens (finds or creates) the chat of a target with the given participants' })
  @ApiCreatedResponse({ type: ChatGroupDto })
  async openForTarget(
    @CurrentUser() user: AuthUser,
    @Param('targetType', TargetType) targetType: number,
    @Param('target', CodeParamPipe) target: string,
    @Body() dto: TargetParticipantsDto,
  ): Promise<ChatGroupDto> {
    const group = await this.groups.openForTarget(user, targetType, target, dto.participants);
    return this.groups.get(user, group.code);
  }

  @Post('groups/target')
  @RateLimitedPerUser('chat-send')
  @ApiOperation({ summary: 'Opens the chat of a target and sends a first message in it' })
  @ApiCreatedResponse({ type: StartChatResultDto })
  async openForTargetWithMessage(@CurrentUser() user: AuthUser, @Body() dto: CreateTargetGroupDto): Promise<StartChatResultDto> {
    const group = await this.groups.openForTarget(user, dto.targetType, dto.targetId, dto.participants);
    const message = await this.messages.sendFirst(user, group, dto);
    return { group: await this.groups.get(user, group.code), message };
  }

  @Get('groups')
  @ApiOperation({ summary: "The caller's chats, newest activity first, with unread counts and last messages" })
  @ApiOkResponse({ type: ChatGroupPageDto })
  list(@CurrentUser() user: AuthUser, @Query() query: GroupListQueryDto): Promise<ChatGroupPageDto> {
    return this.groups.list(user, query);
  }

  @Put('groups')
  @RateLimitedPerUser('chat-send')
  @ApiOperation({ summary: 'Starts (or reuses) the chat with these users and sends a first message if given' })
  @ApiOkResponse({ type: StartChatResultDto })
  async start(@CurrentUser() user: AuthUser, @Body() dto: StartChatDto): Promise<StartChatResultDto> {
    const group = await this.groups.startWithUsers(user, dto.userList, dto.createNewGroup);
    const message = await this.messages.sendFirst(user, group, dto);
    return { group: await this.groups.get(user, group.code), message };
  }

  @Get('groups/:id')
  @ApiOperation({ summary: 'One chat, with all its participants' })
  @ApiOkResponse({ type: ChatGroupDto })
  get(@CurrentUser() user: AuthUser, @Param('id', CodeParamPipe) id: string, @Query() query: GroupLangQueryDto): Promise<ChatGroupDto> {
    return this.groups.get(user, id, query.lang);
  }

  @Patch('groups/:id')
  @RateLimitedPerUser('chat-rename')
  @ApiOperation({ summary: 'Renames a chat or sets its subtitle (null clears)' })
  @ApiOkResponse({ type: ChatGroupDto })
  rename(@CurrentUser() user: AuthUser, @Param('id', CodeParamPipe) id: string, @Body() dto: PatchGroupDto): Promise<ChatGroupDto> {
    return this.groups.rename(user, id, dto);
  }

  @Post('group/:id/participants')
  @HttpCode(200)
  @ApiOperation({ summary: 'Adds participants; they see the history but start with nothing unread' })
  @ApiOkResponse({ type: ChatGroupDto })
  addParticipants(@CurrentUser() user: AuthUser, @Param('id', CodeParamPipe) id: string, @Body() dto: AddParticipantsDto): Promise<ChatGroupDto> {
    return this.groups.addParticipants(user, id, dto);
  }

  @Delete('group/:id/participants/me')
  @HttpCode(204)
  @ApiOperation({ summary: 'Leaves a chat; refused for an offer chat, a chat of two, and the owner of a job chat (422 CHAT.LEAVE.*)' })
  @ApiNoContentResponse()
  leave(@CurrentUser() user: AuthUser, @Param('id', CodeParamPipe) id: string): Promise<void> {
    return this.groups.leave(user, id);
  }
}
