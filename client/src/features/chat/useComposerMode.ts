import { type KeyboardEvent, useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { notify } from '@/components/notifications/notify';
import { translateRule } from '@/i18n/messages';
import { editMessage } from './message-changes.actions';
import { cancelComposerMode, replyEditStore } from './reply-edit.store';

/**
 * The composer's reply or edit mode for one group: an edit fills the text area with the message's text,
 * either mode focuses it; Esc cancels, and while editing Enter (without Shift) saves.
 */
export function useComposerMode(groupCode: string, setText: (text: string) => void) {
  const mode = useSnapshot(replyEditStore).modes[groupCode] ?? null;
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const editing = mode?.kind === 'edit';
  const modeKey = mode ? (mode.kind === 'edit' ? `edit:${mode.code}` : `reply:${mode.replyTo.code}`) : null;

  useEffect(() => {
    if (!modeKey) return;
    const current = replyEditStore.modes[groupCode];
    if (current?.kind === 'edit') setText(current.text);
    inputRef.current?.focus();
    // Only when the mode starts or changes to another message, not on every snapshot.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [modeKey, groupCode]);

  const cancel = () => {
    if (replyEditStore.modes[groupCode]?.kind === 'edit') setText('');
    cancelComposerMode(groupCode);
  };

  const saveEdit = async (text: string) => {
    const current = replyEditStore.modes[groupCode];
    if (current?.kind !== 'edit') return;
    const trimmed = text.trim();
    try {
      if (trimmed !== current.text) await editMessage(groupCode, current.code, trimmed);
      cancel();
    } catch (err) {
      notify.error(translateRule(err instanceof Error ? err.message : ''));
    }
  };

  /** True when the key was the mode's (Esc, or Enter while editing). */
  const handleKey = (event: KeyboardEvent<HTMLTextAreaElement>, save: () => void): boolean => {
    if (!mode) return false;
    if (event.key === 'Escape') {
      event.preventDefault();
      cancel();
      return true;
    }
    if (editing && event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      save();
      return true;
    }
    return false;
  };

  return { mode, editing, inputRef, cancel, saveEdit, handleKey };
}
