import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentInstance } from './current-instance.decorator';
import { Public } from '../../common/decorators/public.decorator';
import { InstanceEntity } from './instance.entity';
import { buildStylesheet } from './instance-stylesheet';

/** Served outside /api (main's global prefix excludes it): the client links it as a stylesheet. */
@ApiTags('instance')
@Public()
@Controller('instance')
export class InstanceStylesController {
  @Get('styles.css')
  @ApiOperation({
    summary: "The host's instance stylesheet (public, not under /api)",
    description:
      ':root { --instance-color, --instance-accent (with "#"), their -rgb triplets and -contrast text colours }, then the ' +
      "instance's custom CSS. Cached 60 s; answers 304 to a matching If-None-Match.",
  })
  @ApiProduces('text/css')
  @ApiOkResponse({ description: 'text/css; charset=utf-8', schema: { type: 'string' } })
  styles(@CurrentInstance() instance: InstanceEntity, @Req() req: Request, @Res() res: Response): void {
    const { css, etag } = buildStylesheet(instance);
    res.set({
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'public, max-age=60',
      'X-Content-Type-Options': 'nosniff',
      ETag: etag,
    });
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.send(css);
  }
}
