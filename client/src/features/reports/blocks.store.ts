import { proxy } from 'valtio';
import { GROUP_TYPE } from '@/api/chat-types';
import { reportsApi } from '@/api/reports.api';

/** The users the signed-in user blocked, by code: their messages are collapsed in shared chats. */
export const blocksStore = proxy<{ blocked: Record<string, true> }>({ blocked: {} });

export async function loadBlocks(): Promise<void> {
  const list = await reportsApi.blocks();
  blocksStore.blocked = Object.fromEntries(list.map((b) => [b.code, true as const]));
}

export async function blockUser(userCode: string): Promise<void> {
  await reportsApi.block(userCode);
  blocksStore.blocked[userCode] = true;
}

export async function unblockUser(userCode: string): Promise<void> {
  await reportsApi.unblock(userCode);
  delete blocksStore.blocked[userCode];
}

export function resetBlocks(): void {
  blocksStore.blocked = {};
}

/**
 * Whether a message is hidden from the reader as a blocked user's: collapsed in the chat, no toast. Never in an
 * offer's chat, where the deal goes on whatever the parties think of each other (docs/moderation.md).
 */
export function hiddenAsBlocked(blocked: Readonly<Record<string, true>>, authorCode: string | null, groupType: number | undefined): boolean {
  return authorCode !== null && blocked[authorCode] === true && groupType !== GROUP_TYPE.JobOffer;
}
