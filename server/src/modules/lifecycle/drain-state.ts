import { Injectable } from '@nestjs/common';

/**
 * Whether this process is draining: set once, when a SIGTERM begins the shutdown, never cleared.
 * Readiness answers 503 from then on, and the socket server stops taking connections.
 */
@Injectable()
export class DrainState {
  private drainingSince: number | null = null;

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  begin(): void {
    this.drainingSince ??= Date.now();
  }
}
