import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '#shared/contracts/auth';
import { Role } from '#shared/contracts/roles';
import { CurrentUser } from '../../../common/decorators/current-user.decorator';
import { RequireAnyRole } from '../../../common/decorators/roles.decorator';
import { OfferTimerSettingsDto, OfferTimerSettingsQueryDto, UpdateOfferTimerSettingsDto } from './offer-timer-settings.dto';
import { OfferTimerSettingsService } from './offer-timer-settings.service';

@ApiTags('offers')
@ApiBearerAuth()
@RequireAnyRole(Role.InstanceAdmin, Role.GlobalAdmin)
@Controller('job-offers/timers')
export class OfferTimerSettingsController {
  constructor(private readonly settings: OfferTimerSettingsService) {}

  @Get()
  @ApiOperation({ summary: "The instance's offer timers: expiry, auto-accept of finalisation, reminders (instance and global admins)" })
  @ApiOkResponse({ type: OfferTimerSettingsDto })
  get(@CurrentUser() user: AuthUser, @Query() query: OfferTimerSettingsQueryDto): Promise<OfferTimerSettingsDto> {
    return this.settings.get(user, query.instanceCode);
  }

  @Put()
  @ApiOperation({
    summary: "Changes the instance's offer timers; fields left out stay as they are",
    description:
      "Applies to timers set from now on (every move sets its offer's next timer). An empty body is 422 VALIDATION.OFFER_TIMERS.NOTHING_TO_UPDATE; " +
      'instance admins change only their own instance (another instanceCode is 403).',
  })
  @ApiOkResponse({ type: OfferTimerSettingsDto })
  update(@CurrentUser() user: AuthUser, @Body() dto: UpdateOfferTimerSettingsDto): Promise<OfferTimerSettingsDto> {
    return this.settings.update(user, dto);
  }
}
