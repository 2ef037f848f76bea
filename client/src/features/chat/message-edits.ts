import type { ChatMessagePayload, ChatReplyPreview } from '@contracts/events';
import type { MessageUpdatedPayload } from '@contracts/socket-events';
import { chatStore, markDeleted } from './chat.store';
import { REPLY_SNIPPET_LENGTH } from './reply-edit.store';

/**
 * Per group, the newest edit seq this tab has caught up to: the newest page's `editSeq` when the thread
 * loaded, then what each `sync` answered. A reconnect asks for the edits after it.
 */
const editCursors = new Map<string, number>();

export const editCursorOf = (groupCode: string): number | undefined => editCursors.get(groupCode);

/** The first page's edit seq starts the cursor; a later page never moves it back or skips edits not yet synced. */
export function startEditCursor(groupCode: string, editSeq: number | undefined): void {
  if (editSeq !== undefined && !editCursors.has(groupCode)) editCursors.set(groupCode, editSeq);
}

/**
 * Per group, the newest translation seq (in the reader's language) this tab has caught up to, started and moved
 * like the edit cursor: a reconnect asks for the translations stored after it of the messages held, since a
 * translation announced while the socket was down is not replayed.
 */
const translationCursors = new Map<string, number>();

export const translationCursorOf = (groupCode: string): number | undefined => translationCursors.get(groupCode);

export function startTranslationCursor(groupCode: string, translationSeq: number | undefined): void {
  if (translationSeq !== undefined && !translationCursors.has(groupCode)) translationCursors.set(groupCode, translationSeq);
}

/** Both cursors (edits and translations): at logout. */
export function resetEditCursors(): void {
  editCursors.clear();
  translationCursors.clear();
}

/**
 * A change pushed as message:updated: a later translation, or an edit (new text, `editedAt`, the old
 * translation gone). A deleted message stays deleted.
 */
export function applyMessageUpdate(update: MessageUpdatedPayload): void {
  if (update.message !== undefined)
    updateQuotes(update.groupCode, update.code, { message: Array.from(update.message).slice(0, REPLY_SNIPPET_LENGTH).join('') });
  const thread = chatStore.threads[update.groupCode];
  const held = thread && Object.values(thread.bySeq).find((m) => m.code === update.code);
  const last = chatStore.groups[update.groupCode]?.lastMessage;
  for (const message of [held, last?.code === update.code ? last : undefined]) {
    if (!message || message.deleted) continue;
    // A translation of another version of the text (an edit overtook it) is not this text's.
    if (update.sourceEditedAt !== undefined && update.message === undefined && update.sourceEditedAt !== (message.editedAt ?? null)) continue;
    message.translation = update.translation;
    if (update.message !== undefined) message.message = update.message;
    if (update.editedAt !== undefined) message.editedAt = update.editedAt;
  }
}

/** The quotes of a message in the replies held, after it was edited or deleted (as a reload would show them). */
export function updateQuotes(groupCode: string, code: string, patch: Partial<Pick<ChatReplyPreview, 'message' | 'deleted' | 'files'>>): void {
  const thread = chatStore.threads[groupCode];
  if (!thread) return;
  for (const m of Object.values(thread.bySeq)) {
    if (m.replyTo?.code === code && !m.replyTo.deleted) Object.assign(m.replyTo, patch);
  }
}

export const markQuotesDeleted = (groupCode: string, code: string): void => updateQuotes(groupCode, code, { deleted: true, message: '', files: 0 });

/** What `sync` answered about held messages edited (or deleted after an edit) while away, and where it got to. */
export function applySyncedEdits(edited: readonly ChatMessagePayload[], editSeqs: Readonly<Record<string, number>>): void {
  for (const m of edited) {
    if (m.deleted) {
      markDeleted(m.groupCode, m.code);
      markQuotesDeleted(m.groupCode, m.code);
    } else applyMessageUpdate({ groupCode: m.groupCode, code: m.code, message: m.message, translation: m.translation, editedAt: m.editedAt ?? null });
  }
  for (const [groupCode, seq] of Object.entries(editSeqs)) editCursors.set(groupCode, Math.max(seq, editCursors.get(groupCode) ?? 0));
}

/** What `sync` answered about translations stored while away of the messages held, and where it got to. */
export function applySyncedTranslations(translated: readonly MessageUpdatedPayload[], translationSeqs: Readonly<Record<string, number>>): void {
  for (const update of translated) applyMessageUpdate(update);
  for (const [groupCode, seq] of Object.entries(translationSeqs)) translationCursors.set(groupCode, Math.max(seq, translationCursors.get(groupCode) ?? 0));
}
