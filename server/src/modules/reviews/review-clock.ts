import { Injectable } from '@nestjs/common';

/** The time that decides review windows. One provider, so tests can put a clock of their own in its place. */
@Injectable()
export class ReviewClock {
  now(): Date {
    return new Date();
  }
}
