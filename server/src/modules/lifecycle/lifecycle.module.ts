import { Global, Module } from '@nestjs/common';
import { DrainState } from './drain-state';

/** The process's lifecycle state shared by health, the socket server and shutdown. */
@Global()
@Module({ providers: [DrainState], exports: [DrainState] })
export class LifecycleModule {}
