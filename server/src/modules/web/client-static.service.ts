import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { ExpressAdapter } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG } from '#shared/config/config.module';
import type { AppConfig } from '#shared/config/config.schema';
import { cacheControlFor, isHistoryRequest, SHELL_CSP } from './client-static';

/**
 * Serves the built client (CLIENT_DIST) on the API's origin. It registers after the API routes, so
 * an API route always wins, and before Nest's 404 handler, which still answers what nobody serves.
 */
@Injectable()
export class ClientStaticService implements OnModuleInit {
  private readonly logger = new Logger('WebModule');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const root = resolve(process.cwd(), this.config.CLIENT_DIST);
    const index = join(root, 'index.html');
    if (!existsSync(index)) {
      this.logger.warn(`no client build at ${root} (run "npm run build:client"); serving the API only`);
      return;
    }
    const adapter = this.adapterHost.httpAdapter as ExpressAdapter;
    adapter.useStaticAssets(root, {
      index: false,
      fallthrough: true,
      setHeaders: (res, filePath) => {
        res.setHeader('Cache-Control', cacheControlFor(relative(root, filePath)));
        if (filePath.endsWith('.html')) res.setHeader('Content-Security-Policy', SHELL_CSP);
      },
    });
    adapter.use((req: Request, res: Response, next: NextFunction) => {
      if (!isHistoryRequest(req)) return next();
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('Content-Security-Policy', SHELL_CSP);
      res.sendFile(index, (err) => {
        if (err) next(err);
      });
    });
  }
}
