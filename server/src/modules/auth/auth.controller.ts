import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentInstance } from '../instances/current-instance.decorator';
import { Public } from '../../common/decorators/public.decorator';
import { InstanceEntity } from '../instances/instance.entity';
import { AuthProvidersService } from './auth-providers.service';
import { AuthService } from './auth.service';
import { LoginDto, RegisterDto } from './dto/auth-request.dto';
import { LoginResponseDto } from './dto/auth-response.dto';
import { RefreshCookie } from './refresh-cookie';
import { SessionService } from './session.service';

@ApiTags('auth')
@Public()
@Controller('user')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionService,
    private readonly cookie: RefreshCookie,
    private readonly providers: AuthProvidersService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Registers in the instance of the Host header and logs in (sets the refresh cookie parley_rt)' })
  @ApiCreatedResponse({ type: LoginResponseDto })
  @ApiTooManyRequestsResponse({ description: 'per IP or per e-mail; Retry-After says when to try again' })
  async register(
    @CurrentInstance() instance: InstanceEntity,
    @Body() dto: RegisterDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<LoginResponseDto> {
    return this.cookie.send(res, await this.auth.register(instance, dto, req.ip));
  }

  @Post('login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Logs in (sets the refresh cookie parley_rt; persistent with rememberMe)' })
  @ApiOkResponse({ type: LoginResponseDto })
  @ApiUnauthorizedResponse({ description: 'SHARED.USER.INVALID_CREDENTIALS' })
  @ApiTooManyRequestsResponse({ description: 'per IP or per e-mail; Retry-After says when to try again' })
  async login(
    @CurrentInstance() instance: InstanceEntity,
    @Body() dto: LoginDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<LoginResponseDto> {
    return this.cookie.send(res, await this.auth.login(instance, dto, req.ip));
  }

  @Post('refresh-token')
  @HttpCode(200)
  @ApiOperation({ summary: 'Rotates the refresh cookie and answers like login; a reused cookie revokes its whole family' })
  @ApiOkResponse({ type: LoginResponseDto })
  @ApiUnauthorizedResponse({ description: 'SHARED.USER.SESSION_EXPIRED; the cookie is cleared' })
  async refresh(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<LoginResponseDto> {
    return this.cookie.send(res, await this.cookie.clearOnFailure(res, () => this.sessions.refresh(this.cookie.read(req))));
  }

  @Post('logout')
  @HttpCode(204)
  @ApiOperation({
    summary:
      "Revokes the refresh cookie's family and clears the cookie; the access token lapses by itself. A session begun with an identity provider is also revoked there when it offers revocation.",
  })
  @ApiNoContentResponse()
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    const family = await this.sessions.end(this.cookie.read(req));
    this.cookie.clear(res);
    await this.providers.signOut(family);
  }
}
