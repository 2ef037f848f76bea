import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { stopTracing } from './tracing';

/** Sends the last spans (those of the shutdown itself included) once everything else has closed. */
@Injectable()
export class TracingShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return stopTracing();
  }
}
