import { ChatGroupType } from '#shared/contracts/chat';

/** Groups whose kind is kept; past this, the least recently stored are dropped (and learnt again on a send). */
const MAX_GROUPS = 50_000;

/**
 * The kind (ChatGroupType) of the groups this process stored messages in, learnt from the insert statement's
 * answer (a group's type never changes). The send path asks it whether a text needs the off-platform detector:
 * only offer chats do, and a group not known yet is checked (the statement decides whether to mark it anyway).
 * Per process, like ParticipantCodesCache; nothing to invalidate.
 */
export class GroupKindsCache {
  private readonly kinds = new Map<string, number>();

  constructor(private readonly maxGroups = MAX_GROUPS) {}

  /** False only for a group known not to be an offer's chat. */
  mayBeOfferChat(groupCode: string): boolean {
    const kind = this.kinds.get(groupCode);
    return kind === undefined || kind === ChatGroupType.JobOffer;
  }

  remember(groupCode: string, kind: number): void {
    if (this.kinds.get(groupCode) === kind) return;
    this.kinds.set(groupCode, kind);
    if (this.kinds.size > this.maxGroups) this.kinds.delete(this.kinds.keys().next().value!);
  }
}
