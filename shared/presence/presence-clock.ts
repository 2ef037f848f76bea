import { Injectable } from '@nestjs/common';

/** The time presence is counted by; one provider, so tests can move it (the browser's clock beside it). */
@Injectable()
export class PresenceClock {
  now(): number {
    return Date.now();
  }
}
