import { chatApi } from '@/api/chat.api';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { chatStore, forgetGroup, receiveMessage, upsertGroup, upsertGroups } from './chat.store';

/** The chat list: the user's groups, newest activity first (the first 50). */
export async function loadGroups(): Promise<void> {
  const page = await chatApi.groups(1, 50, preferencesStore.language);
  upsertGroups(page.groups);
  chatStore.listLoaded = true;
}

/** Reads a group this tab does not hold yet (a push from a chat not listed, a chat opened by its address). */
export async function ensureGroup(code: string): Promise<void> {
  if (!chatStore.groups[code]) upsertGroup(await chatApi.group(code, preferencesStore.language));
}

/** The group with all its participants, fresh from the server (lists carry at most 20 of them). */
export async function refreshGroup(code: string): Promise<void> {
  upsertGroup(await chatApi.group(code, preferencesStore.language));
}

/** Starts the chat with these people (the server reuses one of exactly them) and sends the first message if given; returns its code. */
export async function startChat(userCodes: string[], text: string): Promise<string> {
  const message = text.trim();
  const res = await chatApi.start({ userList: userCodes, ...(message ? { message, lang: preferencesStore.language } : {}) });
  upsertGroup(res.group);
  if (res.message) receiveMessage(res.message);
  return res.group.code;
}

export async function addParticipants(code: string, userCodes: string[]): Promise<void> {
  upsertGroup(await chatApi.addParticipants(code, userCodes));
}

/** Leaves the chat (the server refuses where both parties must stay); it is forgotten here at once. */
export async function leaveGroup(code: string): Promise<void> {
  await chatApi.leave(code);
  forgetGroup(code);
}

/** Empty texts clear the name or subtitle (sent as null). */
export async function saveGroupSettings(code: string, name: string, subtitle: string): Promise<void> {
  upsertGroup(await chatApi.rename(code, { name: name.trim() || null, subtitle: subtitle.trim() || null }));
}
