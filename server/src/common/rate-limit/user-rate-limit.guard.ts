import { applyDecorators, CanActivate, ExecutionContext, Inject, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { RateLimitRule, RateLimitService } from './rate-limit.service';

/** The per-user budgets a route can spend; each is a fixed window from the config (its limit and window keys). */
const BUDGETS = {
  'chat-send': ['CHAT_SEND_RATE_LIMIT', 'CHAT_SEND_RATE_WINDOW'],
  'chat-rename': ['CHAT_RENAME_RATE_LIMIT', 'CHAT_RENAME_RATE_WINDOW'],
  upload: ['UPLOAD_RATE_LIMIT', 'UPLOAD_RATE_WINDOW'],
  'job-create': ['JOB_CREATE_RATE_LIMIT', 'JOB_CREATE_RATE_WINDOW'],
  'offer-create': ['OFFER_CREATE_RATE_LIMIT', 'OFFER_CREATE_RATE_WINDOW'],
  'offer-revise': ['OFFER_REVISE_RATE_LIMIT', 'OFFER_REVISE_RATE_WINDOW'],
  'offer-withdraw': ['OFFER_WITHDRAW_RATE_LIMIT', 'OFFER_WITHDRAW_RATE_WINDOW'],
} as const satisfies Record<string, readonly [keyof AppConfig, keyof AppConfig]>;

export type UserBudget = keyof typeof BUDGETS;

const BUDGET = 'userRateLimit';

/**
 * Spends one unit of the caller's `budget` before the handler (and before an upload is read); over the
 * budget the request is 429 with Retry-After, in the one error envelope. Every server node shares the count.
 */
export const RateLimitedPerUser = (budget: UserBudget) =>
  applyDecorators(
    SetMetadata(BUDGET, budget),
    UseGuards(UserRateLimitGuard),
    ApiTooManyRequestsResponse({ description: `Over the caller's ${budget} budget (per user); Retry-After says when to try again` }),
  );

@Injectable()
export class UserRateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly rateLimit: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const budget = this.reflector.get<UserBudget | undefined>(BUDGET, ctx.getHandler());
    const user = ctx.switchToHttp().getRequest<Request>().user;
    if (!budget || !user) return true;
    await this.rateLimit.consume([userBudgetRule(this.config, budget, user.code)]);
    return true;
  }
}

/** The rule that counts a user's spending of a budget; `cost` units (default 1) for this hit. */
export function userBudgetRule(config: AppConfig, budget: UserBudget, userCode: string, cost = 1): RateLimitRule {
  const [limitKey, windowKey] = BUDGETS[budget];
  const [limit, windowSeconds] = [config[limitKey], config[windowKey]];
  return { name: `user:${budget}`, id: userCode, limit, windowSeconds, cost };
}
