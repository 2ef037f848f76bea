import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../users/users.module';
import { RefreshTokenEntity } from './refresh-token.entity';
import { TokenService } from './token.service';

@Module({
  imports: [JwtModule.register({}), TypeOrmModule.forFeature([RefreshTokenEntity]), UsersModule],
  providers: [TokenService],
  exports: [TokenService],
})
export class AuthModule {}
