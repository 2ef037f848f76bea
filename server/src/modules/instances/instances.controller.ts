import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '#shared/contracts/auth';
import { Role } from '#shared/contracts/roles';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { CurrentInstance } from './current-instance.decorator';
import { Public } from '../../common/decorators/public.decorator';
import { RequireAnyRole } from '../../common/decorators/roles.decorator';
import { CodeParamPipe } from '../../common/pipes';
import { pageOf } from '../../common/dto/page-query.dto';
import { AppointOwnerDto, INSTANCE_PAGE_SIZE, InstanceListQueryDto, UpdateInstanceDto } from './dto/instance-request.dto';
import { CurrentInstanceDto, InstanceDto, InstancePageDto } from './dto/instance-response.dto';
import { InstanceEntity } from './instance.entity';
import { InstancesService } from './instances.service';

@ApiTags('instance')
@Controller('Instance')
export class InstancesController {
  constructor(private readonly instances: InstancesService) {}

  @Public()
  @Get('Current')
  @ApiOperation({
    summary: 'The instance this host serves: name (the page title), code, colours without "#" and logo (public)',
    description: 'The call that provides the instance name. Chosen by the Host header; hosts no instance claims get the default instance.',
  })
  @ApiOkResponse({ type: CurrentInstanceDto })
  current(@CurrentInstance() instance: InstanceEntity): CurrentInstanceDto {
    return this.instances.current(instance);
  }

  @Get('Owned')
  @ApiBearerAuth()
  @ApiOperation({ summary: "Instances the caller owns, plus the caller's own instance when they are its instance admin" })
  @ApiOkResponse({ type: [InstanceDto] })
  owned(@CurrentUser() user: AuthUser): Promise<InstanceDto[]> {
    return this.instances.owned(user);
  }

  @Get()
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Instances visible to the caller, by name: every instance for global roles (10, 100), else only their own',
  })
  @ApiOkResponse({ type: InstancePageDto })
  list(@CurrentUser() user: AuthUser, @Query() query: InstanceListQueryDto): Promise<InstancePageDto> {
    const { page, pageSize } = pageOf(query, INSTANCE_PAGE_SIZE);
    return this.instances.list(user, page, pageSize);
  }

  @Get(':id')
  @ApiBearerAuth()
  @ApiOperation({
    summary: "One instance by its code: the caller's own, or any for global roles (10, 100); 404 otherwise",
  })
  @ApiOkResponse({ type: InstanceDto })
  get(@CurrentUser() user: AuthUser, @Param('id', CodeParamPipe) code: string): Promise<InstanceDto> {
    return this.instances.get(user, code);
  }

  @Post()
  @HttpCode(200)
  @ApiBearerAuth()
  @RequireAnyRole(Role.GlobalUser, Role.InstanceAdmin, Role.GlobalAdmin)
  @ApiOperation({
    summary: 'Customises an instance: name, colours (hex without "#"), logo, custom CSS; answers the updated instance',
    description:
      'Global admins may change any instance (pick it with `code`, default their own); global users and instance admins only ' +
      'their own (another `code` is 403); instance users 403. Fields left out stay as they are; a body with nothing to change ' +
      'is 422 VALIDATION.INSTANCE.NOTHING_TO_UPDATE. Other replicas pick the change up within 10 s.',
  })
  @ApiOkResponse({ type: InstanceDto })
  update(@CurrentUser() user: AuthUser, @Body() dto: UpdateInstanceDto): Promise<InstanceDto> {
    return this.instances.update(user, dto);
  }

  @Put(':id/owner')
  @ApiBearerAuth()
  @RequireAnyRole(Role.GlobalAdmin)
  @ApiOperation({
    summary: 'Appoints the owner of an instance (global admins only): a user of that instance, who becomes its instance admin',
    description:
      'Instance admins are explicit, never the first to register. A user of another instance is 422 ' +
      'VALIDATION.USER_CODE.NOT_IN_INSTANCE; the appointment is written to the audit log (instance.owner).',
  })
  @ApiOkResponse({ type: InstanceDto })
  appointOwner(@CurrentUser() user: AuthUser, @Param('id', CodeParamPipe) code: string, @Body() dto: AppointOwnerDto): Promise<InstanceDto> {
    return this.instances.appointOwner(user, code, dto.userCode);
  }
}
