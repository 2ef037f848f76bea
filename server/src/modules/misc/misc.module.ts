import { Module } from '@nestjs/common';
import { MiscController } from './misc.controller';
import { TimezonesService } from './timezones.service';

/** Public lookups the client needs before login: time zones and the client config file. */
@Module({ controllers: [MiscController], providers: [TimezonesService] })
export class MiscModule {}
