import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { CookieOptions, Request, Response } from 'express';
import type { AuthUser } from '#shared/contracts/auth';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { CurrentInstance } from '../instances/current-instance.decorator';
import { Public } from '../../common/decorators/public.decorator';
import { InstanceEntity } from '../instances/instance.entity';
import { AuthProvidersService } from './auth-providers.service';
import { AuthProviderDto, LinkedProviderDto, LoginResponseDto, LoginUrlDto } from './dto/auth-response.dto';
import { ProviderLoginDto, ProviderLoginUrlQueryDto } from './dto/provider-login.dto';
import { LinkedProvidersService } from './oidc/linked-providers.service';
import { RefreshCookie } from './refresh-cookie';

/** Binds a sign-in to the browser that started it: the callback must come with the state this cookie holds. */
const STATE_COOKIE = 'parley_oidc_state';
const STATE_COOKIE_PATH = '/api/User/AuthProviders';

@ApiTags('auth')
@Controller('User/AuthProviders')
export class AuthProvidersController {
  constructor(
    private readonly providers: AuthProvidersService,
    private readonly linked: LinkedProvidersService,
    private readonly cookie: RefreshCookie,
  ) {}

  @Public()
  @Get()
  @ApiOperation({ summary: 'The enabled OpenID Connect providers of this instance (AUTH_PROVIDERS; none by default)' })
  @ApiOkResponse({ type: [AuthProviderDto] })
  list(@CurrentInstance() instance: InstanceEntity): AuthProviderDto[] {
    return this.providers.list(instance);
  }

  @Get('Linked')
  @ApiOperation({ summary: "The caller's linked providers" })
  @ApiOkResponse({ type: [LinkedProviderDto] })
  listLinked(@CurrentUser() user: AuthUser): Promise<LinkedProviderDto[]> {
    return this.linked.list(user.id);
  }

  @Delete('Linked/:provider')
  @HttpCode(204)
  @ApiOperation({ summary: 'Unlinks a provider; refused when it is the last way to sign in' })
  @ApiNoContentResponse()
  @ApiConflictResponse({ description: 'SHARED.AUTH_PROVIDER.LAST_SIGN_IN_METHOD' })
  @ApiNotFoundResponse({ description: 'not linked' })
  async unlink(@CurrentUser() user: AuthUser, @Param('provider') provider: string): Promise<void> {
    await this.linked.remove(user.id, provider);
  }

  @Public()
  @Get(':provider/LoginUrl')
  @ApiOperation({ summary: "The provider's authorisation URL (code flow with PKCE); `state` is the address to land on afterwards" })
  @ApiOkResponse({ type: LoginUrlDto })
  @ApiNotFoundResponse({ description: 'unknown provider' })
  @ApiForbiddenResponse({ description: 'SHARED.AUTH_PROVIDER.DISABLED' })
  @ApiServiceUnavailableResponse({ description: 'SHARED.AUTH_PROVIDER.UNAVAILABLE' })
  async loginUrl(
    @CurrentInstance() instance: InstanceEntity,
    @Param('provider') provider: string,
    @Query() query: ProviderLoginUrlQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<LoginUrlDto> {
    const { url, state } = await this.providers.loginUrl(instance, provider, query.state, query.type, `${req.protocol}://${req.get('host')}`);
    res.cookie(STATE_COOKIE, state, { ...this.stateCookie(), maxAge: 600_000 });
    return url;
  }

  @Public()
  @Post(':provider/Login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchanges the code the provider sent back for a session (sets the refresh cookie like a password login)' })
  @ApiOkResponse({ type: LoginResponseDto })
  @ApiBadRequestResponse({ description: 'SHARED.AUTH_PROVIDER.STATE_INVALID' })
  @ApiUnauthorizedResponse({ description: 'SHARED.AUTH_PROVIDER.CODE_REJECTED or TOKEN_INVALID' })
  @ApiConflictResponse({ description: 'SHARED.AUTH_PROVIDER.LINK_NEEDS_PASSWORD, with data.linkToken for POST /api/user/login' })
  @ApiNotFoundResponse({ description: 'unknown provider' })
  async login(
    @CurrentInstance() instance: InstanceEntity,
    @Param('provider') provider: string,
    @Body() dto: ProviderLoginDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<LoginResponseDto> {
    const browserState = (req.cookies as Record<string, unknown> | undefined)?.[STATE_COOKIE];
    res.clearCookie(STATE_COOKIE, this.stateCookie());
    return this.cookie.send(res, await this.providers.login(instance, provider, dto, typeof browserState === 'string' ? browserState : undefined));
  }

  private stateCookie(): CookieOptions {
    return { httpOnly: true, sameSite: 'lax', path: STATE_COOKIE_PATH, secure: this.cookie.secure() };
  }
}
