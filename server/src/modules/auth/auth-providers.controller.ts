import { Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../../common/decorators/public.decorator';
import { AuthProvidersService } from './auth-providers.service';
import { LoginUrlQueryDto } from './dto/auth-request.dto';
import { AuthProviderDto, LoginResponseDto, LoginUrlDto } from './dto/auth-response.dto';

@ApiTags('auth')
@Public()
@Controller('User/AuthProviders')
export class AuthProvidersController {
  constructor(private readonly providers: AuthProvidersService) {}

  @Get()
  @ApiOperation({ summary: 'The configured external identity providers (AUTH_PROVIDERS; none by default)' })
  @ApiOkResponse({ type: [AuthProviderDto] })
  list(): AuthProviderDto[] {
    return this.providers.list();
  }

  @Get(':provider/LoginUrl')
  @ApiOperation({ summary: "The provider's authorisation URL for the authorization code flow" })
  @ApiOkResponse({ type: LoginUrlDto })
  @ApiNotFoundResponse({ description: 'unknown provider' })
  loginUrl(@Param('provider') provider: string, @Query() query: LoginUrlQueryDto, @Req() req: Request): LoginUrlDto {
    return this.providers.loginUrl(provider, query.state, `${req.protocol}://${req.get('host')}`);
  }

  @Post(':provider/Login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchanges the code for a session: not implemented yet' })
  @ApiOkResponse({ type: LoginResponseDto, description: 'once the code exchange is built; until then 501' })
  @ApiResponse({ status: 501, description: 'for a configured provider: the code exchange is not built yet' })
  @ApiNotFoundResponse({ description: 'unknown provider' })
  login(@Param('provider') provider: string): never {
    return this.providers.login(provider);
  }
}
