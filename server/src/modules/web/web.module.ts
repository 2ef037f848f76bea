import { Module } from '@nestjs/common';
import { ClientStaticService } from './client-static.service';

/** The built React client, served with history fallback to index.html. */
@Module({ providers: [ClientStaticService] })
export class WebModule {}
