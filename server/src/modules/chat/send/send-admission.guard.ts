import { applyDecorators, CanActivate, Injectable, UseGuards } from '@nestjs/common';
import { ApiServiceUnavailableResponse } from '@nestjs/swagger';
import { SendAdmission } from './send-admission';

/** REST sends pass SendAdmission before anything else of theirs runs (the socket's message:send asks it itself). */
@Injectable()
export class SendAdmissionGuard implements CanActivate {
  constructor(private readonly admission: SendAdmission) {}

  canActivate(): boolean {
    this.admission.admit();
    return true;
  }
}

/** Put below the route's other guard decorators, so a refusal under load costs nothing else (guards run bottom-up). */
export const AdmittedSend = () =>
  applyDecorators(
    UseGuards(SendAdmissionGuard),
    ApiServiceUnavailableResponse({
      description:
        'SHARED.ERROR.OVERLOADED: this server is refusing sends for a moment; send the same again (same clientKey) after Retry-After / data.retryAfterMs',
    }),
  );
