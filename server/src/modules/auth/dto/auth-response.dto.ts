import { ApiProperty } from '@nestjs/swagger';
import { MeResponseDto } from '../../users/dto/user-response.dto';
import type { LoginResponse } from '#shared/contracts/rest/users';

export class LoginResponseDto implements LoginResponse {
  @ApiProperty({ description: 'access JWT (HS256): unique_name, nameid, role, nbf, exp, iat' }) token: string;
  @ApiProperty({ type: MeResponseDto }) user: MeResponseDto;
  @ApiProperty({ example: '/', description: "the returnUrl if it is a same-origin path, else '/'" }) redirectUrl: string;
}

export class AuthProviderDto {
  @ApiProperty({ example: 'google' }) name: string;
  @ApiProperty({ example: 'Google' }) label: string;
}

export class LoginUrlDto {
  @ApiProperty() url: string;
}

export class LinkedProviderDto {
  @ApiProperty({ example: 'corp' }) name: string;
  @ApiProperty({ example: 'Corp SSO' }) label: string;
  @ApiProperty({ type: String, nullable: true, description: 'the address the provider gave when it was linked' }) email: string | null;
  @ApiProperty({ description: 'ISO time' }) linkedAt: string;
}
