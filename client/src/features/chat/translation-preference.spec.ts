import { chatGroup, storedMessage } from '../../../jest/chat-fixtures';
import { chatStore, receiveMessage, resetChat, upsertGroup } from './chat.store';
import { applyMessageUpdate } from './message-edits';
import { languageName, setTranslateMessages, showsOriginal, translationPreference, TRANSLATE_MESSAGES_KEY } from './translation-preference';

describe('translated messages', () => {
  beforeEach(() => {
    resetChat();
    upsertGroup(chatGroup('G_one'));
    localStorage.clear();
  });

  it('shows the translation by default while "Translate messages into my language" is on, the original while it is off', () => {
    expect(translationPreference.on).toBe(true);
    expect(showsOriginal(true, false)).toBe(false);
    expect(showsOriginal(true, true)).toBe(true);
    expect(showsOriginal(false, false)).toBe(true);
    expect(showsOriginal(false, true)).toBe(false);
    setTranslateMessages(false);
    expect(translationPreference.on).toBe(false);
    expect(localStorage.getItem(TRANSLATE_MESSAGES_KEY)).toBe('false');
    setTranslateMessages(true);
  });

  it('names the original language in the interface language', () => {
    expect(languageName('spa', 'eng')).toBe('Spanish');
    expect(languageName('spa', 'pol')).toBe('hiszpański');
    expect(languageName(null, 'eng')).toBeNull();
  });

  it('takes a late translation only for the version of the text it translates', () => {
    receiveMessage(storedMessage(1, { message: 'Hola', language: 'spa' }));
    applyMessageUpdate({ groupCode: 'G_one', code: 'M1', translation: 'Hello', sourceEditedAt: null });
    expect(chatStore.threads.G_one.bySeq[1].translation).toBe('Hello');
    // An edit overtook a translation of the old text: the old translation is not the new text's.
    applyMessageUpdate({ groupCode: 'G_one', code: 'M1', message: 'Adiós', translation: null, editedAt: '2026-01-01T10:00:00.000Z' });
    applyMessageUpdate({ groupCode: 'G_one', code: 'M1', translation: 'Hello', sourceEditedAt: null });
    expect(chatStore.threads.G_one.bySeq[1]).toMatchObject({ message: 'Adiós', translation: null });
    applyMessageUpdate({ groupCode: 'G_one', code: 'M1', translation: 'Goodbye', sourceEditedAt: '2026-01-01T10:00:00.000Z' });
    expect(chatStore.threads.G_one.bySeq[1].translation).toBe('Goodbye');
    expect(chatStore.groups.G_one.lastMessage?.translation).toBe('Goodbye');
  });
});
