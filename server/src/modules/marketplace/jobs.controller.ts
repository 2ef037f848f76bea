import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '#shared/contracts/auth';
import { JOB_ROLES } from '#shared/contracts/offers';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { CodeParamPipe, IntInSetPipe } from '../../common/pipes';
import { RateLimitedPerUser } from '../../common/rate-limit/user-rate-limit.guard';
import { ChatGroupDto } from '../chat/dto/chat-response.dto';
import {
  JobDto,
  JobListQueryDto,
  JobMachineTranslationDto,
  JobPageDto,
  JobRoleDto,
  LangQueryDto,
  MachineTranslationQueryDto,
  SaveJobDto,
  SetRoleUsersDto,
} from './dto/job.dto';
import { JobRolesService } from './job-roles.service';
import { JobsService } from './jobs.service';

// eslint-disable-next-line no-useless-assignment -- used in a parameter decorator, which the rule does not see
const RoleId = new IntInSetPipe(
  'ROLE_ID',
  JOB_ROLES.map((r) => r.id),
);

@ApiTags('jobs')
@ApiBearerAuth()
@Controller('job')
export class JobsController {
  constructor(
    private readonly jobs: JobsService,
    private readonly jobRoles: JobRolesService,
  ) {}

  @Get()
  @ApiOperation({ summary: "The instance's jobs, newest first; title and description in `lang`, else the default version" })
  @ApiOkResponse({ type: JobPageDto })
  list(@CurrentUser() user: AuthUser, @Query() query: JobListQueryDto): Promise<JobPageDto> {
    return this.jobs.list(user, query);
  }

  @Post()
  @RateLimitedPerUser('job-create')
  @ApiOperation({ summary: 'Posts a job (the caller is its customer); versions as the job translation form (422 uniqueTranslation)' })
  @ApiCreatedResponse({ type: JobDto })
  create(@CurrentUser() user: AuthUser, @Body() dto: SaveJobDto, @Query() query: LangQueryDto): Promise<JobDto> {
    return this.jobs.create(user, dto, query.lang);
  }

  @Get(':code')
  @ApiOperation({ summary: 'One job; title and description in `lang`, else the default version' })
  @ApiOkResponse({ type: JobDto })
  get(@CurrentUser() user: AuthUser, @Param('code', CodeParamPipe) code: string, @Query() query: LangQueryDto): Promise<JobDto> {
    return this.jobs.get(user, code, query.lang);
  }

  @Post(':code')
  @HttpCode(200)
  @ApiOperation({ summary: 'The customer updates the job (deadline, versions replaced, acceptingOffers); others 403' })
  @ApiOkResponse({ type: JobDto })
  update(@CurrentUser() user: AuthUser, @Param('code', CodeParamPipe) code: string, @Body() dto: SaveJobDto, @Query() query: LangQueryDto): Promise<JobDto> {
    return this.jobs.update(user, code, dto, query.lang);
  }

  @Post(':code/machine-translation')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "The job's title and description machine-translated into `lang` from its default version, for a reader it has no version for; never saved. 409 JOB.VERSION_EXISTS when it has one, 422 SHARED.TRANSLATION.UNSUPPORTED_PAIR, 503 SHARED.TRANSLATION.OFF, 502 SHARED.TRANSLATION.FAILED",
  })
  @ApiOkResponse({ type: JobMachineTranslationDto })
  machineTranslation(
    @CurrentUser() user: AuthUser,
    @Param('code', CodeParamPipe) code: string,
    @Query() query: MachineTranslationQueryDto,
  ): Promise<JobMachineTranslationDto> {
    return this.jobs.machineTranslation(user, code, query.lang);
  }

  @Get(':code/faq')
  @ApiOperation({ summary: "The job's FAQ chat (created on first use); the caller joins it" })
  @ApiOkResponse({ type: ChatGroupDto })
  faq(@CurrentUser() user: AuthUser, @Param('code', CodeParamPipe) code: string): Promise<ChatGroupDto> {
    return this.jobs.faq(user, code);
  }

  @Get(':code/roles')
  @ApiOperation({
    summary: "The job's roles (1 manager, 2 reviewer, 3 contributor, 4 observer) with their users; `lang` is accepted, names are translation keys",
  })
  @ApiOkResponse({ type: [JobRoleDto] })
  roles(@CurrentUser() user: AuthUser, @Param('code', CodeParamPipe) code: string, @Query() _query: LangQueryDto): Promise<JobRoleDto[]> {
    return this.jobRoles.list(user, code);
  }

  @Post(':code/roles/:roleId')
  @HttpCode(200)
  @ApiOperation({ summary: "The customer puts exactly these users (of the job's instance) on a role" })
  @ApiOkResponse({ type: JobRoleDto })
  setRole(
    @CurrentUser() user: AuthUser,
    @Param('code', CodeParamPipe) code: string,
    @Param('roleId', RoleId) roleId: number,
    @Body() dto: SetRoleUsersDto,
    @Query() _query: LangQueryDto,
  ): Promise<JobRoleDto> {
    return this.jobRoles.set(user, code, roleId, dto);
  }
}
