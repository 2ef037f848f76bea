import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { AuthUser } from '#shared/contracts/auth';
import { Role } from '#shared/contracts/roles';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { RequireAnyRole } from '../../common/decorators/roles.decorator';
import { pageOf } from '../../common/dto/page-query.dto';
import { CodeParamPipe } from '../../common/pipes';
import {
  CreateReportDto,
  REPORTS_PAGE_SIZE,
  ReportDto,
  ReportQueueItemDto,
  ReportQueuePageDto,
  ReportQueueQueryDto,
  ResolveReportDto,
  UnsuspendedUserDto,
  WarningDto,
} from './dto/reports.dto';
import { ReportsService } from './reports.service';

@ApiTags('reports')
@ApiBearerAuth()
@Controller('reports')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Post()
  @ApiOperation({ summary: 'Reports a message the caller can read (groupCode + messageCode) or a person (userCode) to the moderators' })
  @ApiCreatedResponse({ type: ReportDto })
  @ApiNotFoundResponse({ description: 'REPORT.MESSAGE_NOT_FOUND (also a chat the caller cannot read, a deleted message); REPORT.USER_NOT_FOUND' })
  @ApiConflictResponse({ description: 'REPORT.ALREADY_REPORTED' })
  @ApiUnprocessableEntityResponse({
    description: 'REPORT.MESSAGE_OR_USER, REPORT.SELF, REPORT.OWN_MESSAGE, REPORT.SYSTEM_MESSAGE, or a reason not in the list',
  })
  create(@CurrentUser() user: AuthUser, @Body() dto: CreateReportDto): Promise<ReportDto> {
    return this.reports.create(user, dto);
  }

  @Get('mine')
  @ApiOperation({ summary: "The caller's reports (the latest 50), with what became of them" })
  @ApiOkResponse({ type: [ReportDto] })
  mine(@CurrentUser() user: AuthUser): Promise<ReportDto[]> {
    return this.reports.mine(user);
  }

  @Get('warnings/mine')
  @ApiOperation({ summary: 'The warnings moderators gave the caller (the latest 50, newest first), so one given while they were away is told' })
  @ApiOkResponse({ type: [WarningDto] })
  warnings(@CurrentUser() user: AuthUser): Promise<WarningDto[]> {
    return this.reports.warnings(user);
  }
}

@ApiTags('admin')
@ApiBearerAuth()
@RequireAnyRole(Role.InstanceAdmin, Role.GlobalAdmin)
@Controller('admin/reports')
export class ReportsAdminController {
  constructor(private readonly reports: ReportsService) {}

  @Get()
  @ApiOperation({ summary: 'The moderation queue: open reports oldest first (or resolved ones, newest first), in the caller’s scope' })
  @ApiOkResponse({ type: ReportQueuePageDto })
  queue(@CurrentUser() user: AuthUser, @Query() query: ReportQueueQueryDto): Promise<ReportQueuePageDto> {
    const { page, pageSize } = pageOf(query, REPORTS_PAGE_SIZE);
    return this.reports.queue(user, query.status ?? 'open', page, pageSize);
  }

  @Post(':code/resolve')
  @ApiOperation({ summary: 'Resolves an open report: dismiss, delete the message, warn or suspend the person; audited, and the reporter is told' })
  @ApiCreatedResponse({ type: ReportQueueItemDto })
  @ApiNotFoundResponse({ description: 'REPORT.NOT_FOUND (also outside the caller’s scope)' })
  @ApiConflictResponse({ description: 'REPORT.ALREADY_RESOLVED' })
  @ApiForbiddenResponse({ description: 'REPORT.CANNOT_SUSPEND_MODERATOR' })
  @ApiUnprocessableEntityResponse({ description: 'REPORT.NO_MESSAGE (delete on a report of a person), REPORT.DAYS_ONLY_WITH_SUSPEND' })
  resolve(@CurrentUser() user: AuthUser, @Param('code', CodeParamPipe) code: string, @Body() dto: ResolveReportDto): Promise<ReportQueueItemDto> {
    return this.reports.resolve(user, code, dto);
  }

  @Post('users/:code/unsuspend')
  @ApiOperation({ summary: 'Lifts a running suspension early, for a user in the caller’s scope; audited as user.unsuspend' })
  @ApiCreatedResponse({ type: UnsuspendedUserDto })
  @ApiNotFoundResponse({ description: 'REPORT.USER_NOT_FOUND (also outside the caller’s scope)' })
  @ApiConflictResponse({ description: 'REPORT.NOT_SUSPENDED (also lifted or ended meanwhile)' })
  unsuspend(@CurrentUser() user: AuthUser, @Param('code', CodeParamPipe) code: string): Promise<UnsuspendedUserDto> {
    return this.reports.unsuspend(user, code);
  }
}
