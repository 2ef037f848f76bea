import { proxy } from 'valtio';
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
