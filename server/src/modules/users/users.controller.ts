import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { CodeParamPipe } from '../../common/pipes';
import { AuthUser } from '#shared/contracts/auth';
import { SearchUsersDto, UserCodesDto } from './dto/user-request.dto';
import { UserAvatarDto, UserResponseDto, UserStatusDto } from './dto/user-response.dto';
import { UsersService } from './users.service';

// Register, login, refresh and logout share the /user path but live in the auth module.
@ApiTags('users')
@ApiBearerAuth()
@Controller('user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post('search')
  @HttpCode(200)
  @ApiOperation({ summary: "Up to 20 users of the caller's instance (every instance for global roles) matching the query" })
  @ApiOkResponse({ type: [UserResponseDto] })
  search(@CurrentUser() user: AuthUser, @Body() dto: SearchUsersDto): Promise<UserResponseDto[]> {
    return this.users.search(user, dto.query);
  }

  @Post('list')
  @HttpCode(200)
  @ApiOperation({ summary: 'The users with these codes that the caller may see; others are absent' })
  @ApiOkResponse({ type: [UserResponseDto] })
  list(@CurrentUser() user: AuthUser, @Body() dto: UserCodesDto): Promise<UserResponseDto[]> {
    return this.users.list(user, dto.userIds);
  }

  @Post('statuses')
  @HttpCode(200)
  @ApiOperation({ summary: 'Presence of the users with these codes that the caller may see' })
  @ApiOkResponse({ type: [UserStatusDto] })
  statuses(@CurrentUser() user: AuthUser, @Body() dto: UserCodesDto): Promise<UserStatusDto[]> {
    return this.users.statuses(user, dto.userIds);
  }

  @Get('Avatar/Gravatar')
  @ApiOperation({ summary: "The Gravatar identicon of the caller's e-mail" })
  @ApiOkResponse({ type: UserAvatarDto })
  gravatar(@CurrentUser() user: AuthUser): UserAvatarDto {
    return this.users.gravatar(user);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A public profile by user code; 404 also for users of another instance' })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiNotFoundResponse()
  get(@CurrentUser() user: AuthUser, @Param('id', CodeParamPipe) code: string): Promise<UserResponseDto> {
    return this.users.get(user, code);
  }
}
