// The shapes the fault suite's parts hand each other: options, the simulated world, a fault, a result row.
import type { TestSubscription } from '../../test/push-service/push-service.ts';
import type { ChatClient, ChatMessage, ChaosUser } from './clients.mts';
import type { ChaosStack } from './stack.mts';

export interface ChaosOptions {
  sockets: number;
  rate: number;
  before: number;
  after: number;
  down: number;
  offline: number;
  burst: number;
  pushes: number;
  portBase: number;
  pushDelayMs: number;
  redisLoading: number;
  faults: string[];
  json: string | null;
  keepLogs?: string;
  help?: boolean;
}

export interface QuietChat {
  sender: ChatClient;
  recipient: ChatClient;
  group: string;
}

export interface PushUser {
  user: ChaosUser;
  sub: TestSubscription;
  group: string;
}

export interface World {
  trafficClients: ChatClient[];
  quiet: QuietChat[];
  canary: [ChatClient, ChatClient];
  pushSender: ChatClient;
  pushUsers: PushUser[];
  all: ChatClient[];
}

/** One message sent into a quiet chat while a fault is on. */
export interface Probe {
  recipient: ChatClient;
  ackedAt: number | null;
  code: string | null;
  done?: Promise<unknown>;
}

export interface FaultContext {
  stack: ChaosStack;
  world: World;
  opts: ChaosOptions;
  sendQuiet: () => Probe[];
}

export interface FaultResult {
  endedAt: number;
  quiet: Probe[];
  recoveryMs?: number;
  pushDelays?: number[];
  burst?: number;
  after?: () => Promise<void>;
}

export interface Fault {
  title: string;
  inject: (ctx: FaultContext) => Promise<FaultResult>;
}

export interface UnreadDiff {
  user: string;
  pushed: number;
  rest: number;
  pushedGroups: Record<string, number>;
  restGroups: Record<string, number>;
}

export interface Row {
  fault: string;
  title: string;
  sends: number;
  acked: number;
  lost: number;
  duplicated: number;
  outOfOrder: number;
  liveMissed: number;
  quietProbes: number;
  reconnects: number;
  unreadMismatches: number;
  unreadDiffs: UnreadDiff[];
  recoveryMs: number;
  exits: string[];
  unhandled: string[];
  healthCodes: Record<string, number>;
  pushDelaysMs: number[] | null;
  burst: number | null;
}

export type { ChatMessage };
