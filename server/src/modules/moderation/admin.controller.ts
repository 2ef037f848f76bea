import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '#shared/contracts/auth';
import { Role } from '#shared/contracts/roles';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { RequireAnyRole } from '../../common/decorators/roles.decorator';
import { pageOf } from '../../common/dto/page-query.dto';
import { AUDIT_PAGE_SIZE, AuditPageDto, AuditQueryDto, BusyRoomDto, RoomsQueryDto } from './dto/moderation.dto';
import { ModerationQueriesService } from './moderation-queries.service';

@ApiTags('admin')
@ApiBearerAuth()
@RequireAnyRole(Role.InstanceAdmin, Role.GlobalAdmin)
@Controller('admin')
export class AdminController {
  constructor(private readonly queries: ModerationQueriesService) {}

  @Get('audit')
  @ApiOperation({ summary: 'The moderation audit log (watches, unwatches, moderator deletes), newest first' })
  @ApiOkResponse({ type: AuditPageDto })
  audit(@CurrentUser() user: AuthUser, @Query() query: AuditQueryDto): Promise<AuditPageDto> {
    const { page, pageSize } = pageOf(query, AUDIT_PAGE_SIZE);
    return this.queries.audit(user, page, pageSize);
  }

  @Get('rooms')
  @ApiOperation({ summary: 'The busiest rooms: messages in the last minutes and connected participants' })
  @ApiOkResponse({ type: [BusyRoomDto] })
  rooms(@CurrentUser() user: AuthUser, @Query() query: RoomsQueryDto): Promise<BusyRoomDto[]> {
    return this.queries.busiestRooms(user, Number(query.minutes ?? 10));
  }
}
