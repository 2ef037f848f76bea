import { Injectable } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { ChatGroupType } from '#shared/contracts/chat';

/** What a chat's target (a job, an offer…) says about its chat. */
export interface ChatTarget {
  /** the target's instance: its chat lives there */
  instanceId: string;
  /** the target's owner (a job's customer, an offer's provider): always in its chat, as the group's owner */
  ownerId: string;
  /** whether everyone who sees the target joins its chat by opening it (a job's FAQ); else only its participants get it */
  openToAll: boolean;
  /**
   * whether this caller may create the chat by opening it: false when the chat is made with the target itself
   * (an offer's), or when only the owner makes it (a job's chat) and the caller is someone else
   */
  mayCreate: boolean;
}

/** Looks a target up for a caller: null when it does not exist or the caller may not see it (the same 404 either way). */
export type ChatTargetResolver = (user: AuthUser, targetId: string) => Promise<ChatTarget | null>;

/**
 * The modules that own chat targets register how to find them (the marketplace: jobs and offers), so chat
 * creates a target's chat only for a target that exists and that the caller may see. A type nobody
 * registered (project items: there are none yet) has no chat.
 */
@Injectable()
export class ChatTargets {
  private readonly resolvers = new Map<ChatGroupType, ChatTargetResolver>();

  register(type: ChatGroupType, resolver: ChatTargetResolver): void {
    this.resolvers.set(type, resolver);
  }

  async find(user: AuthUser, type: ChatGroupType, targetId: string): Promise<ChatTarget | null> {
    const resolver = this.resolvers.get(type);
    return resolver ? resolver(user, targetId) : null;
  }
}
