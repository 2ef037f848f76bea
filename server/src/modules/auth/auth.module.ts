import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitModule } from '../../common/rate-limit/rate-limit.module';
import { PresenceModule } from '../presence/presence.module';
import { UsersModule } from '../users/users.module';
import { AuthProvidersController } from './auth-providers.controller';
import { AuthProvidersService } from './auth-providers.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { PasswordService } from './password.service';
import { RefreshCookie } from './refresh-cookie';
import { RefreshTokenEntity } from './refresh-token.entity';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { SessionService } from './session.service';
import { TokenService } from './token.service';

/**
 * Register, login, refresh, logout and external providers. AppModule imports this module before
 * UsersModule, so `GET /api/User/AuthProviders` is routed before the users module's `GET /api/user/:id`.
 */
@Module({
  imports: [JwtModule.register({}), TypeOrmModule.forFeature([RefreshTokenEntity]), UsersModule, PresenceModule, RateLimitModule],
  controllers: [AuthController, AuthProvidersController],
  providers: [TokenService, PasswordService, RefreshTokensRepository, SessionService, AuthService, AuthProvidersService, RefreshCookie],
  exports: [TokenService],
})
export class AuthModule {}
