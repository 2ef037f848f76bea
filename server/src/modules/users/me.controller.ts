import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { AuthUser } from '#shared/contracts/auth';
import { UpdateMeDto } from './dto/user-request.dto';
import { MeResponseDto } from './dto/user-response.dto';
import { UsersService } from './users.service';

@ApiTags('users')
@ApiBearerAuth()
@Controller('me')
export class MeController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: 'The current user, with e-mail, role and instance code' })
  @ApiOkResponse({ type: MeResponseDto })
  me(@CurrentUser() user: AuthUser): Promise<MeResponseDto> {
    return this.users.me(user);
  }

  @Patch()
  @ApiOperation({ summary: "Edits the caller's own profile; absent fields stay, country null clears it" })
  @ApiOkResponse({ type: MeResponseDto })
  update(@CurrentUser() user: AuthUser, @Body() dto: UpdateMeDto): Promise<MeResponseDto> {
    return this.users.updateMe(user, dto);
  }
}
