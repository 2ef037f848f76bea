import { Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { AuthUser } from '#shared/contracts/auth';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { CodeParamPipe } from '../../common/pipes';
import { BlockedUserDto } from '../reports/dto/reports.dto';
import { BlocksService } from './blocks.service';

@ApiTags('blocks')
@ApiBearerAuth()
@Controller('blocks')
export class BlocksController {
  constructor(private readonly blocks: BlocksService) {}

  @Get()
  @ApiOperation({ summary: 'The users the caller blocked, newest first' })
  @ApiOkResponse({ type: [BlockedUserDto] })
  list(@CurrentUser() user: AuthUser): Promise<BlockedUserDto[]> {
    return this.blocks.list(user);
  }

  @Put(':userCode')
  @HttpCode(204)
  @ApiOperation({ summary: 'Blocks a user of the same instance (again: nothing changes); the blocked user is not told' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'BLOCK.USER_NOT_FOUND: no such user in the instance' })
  @ApiUnprocessableEntityResponse({ description: 'BLOCK.SELF' })
  block(@CurrentUser() user: AuthUser, @Param('userCode', CodeParamPipe) userCode: string): Promise<void> {
    return this.blocks.block(user, userCode);
  }

  @Delete(':userCode')
  @HttpCode(204)
  @ApiOperation({ summary: 'Unblocks a user (not blocked: nothing changes)' })
  @ApiNoContentResponse()
  unblock(@CurrentUser() user: AuthUser, @Param('userCode', CodeParamPipe) userCode: string): Promise<void> {
    return this.blocks.unblock(user, userCode);
  }
}
