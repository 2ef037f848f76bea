import { fireEvent, screen, waitFor } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import { sessionStore } from '@/features/session/session.store';
import { ADA, BOB, chatGroup, storedMessage } from '../../../../jest/chat-fixtures';
import { renderRoutes, renderWithMantine } from '../../../../jest/render';
import type { ListedMessage } from '../chat-logic';
import { receiveMessages, resetChat, threadOf, upsertGroup } from '../chat.store';
import { resetEditCursors } from '../message-edits';
import { replyEditStore, resetReplyEdit, startEdit, startReply } from '../reply-edit.store';
import { Composer } from './Composer';
import { MessageItem } from './MessageItem';

const listed = (extra: Partial<ListedMessage> = {}): ListedMessage => ({ ...storedMessage(2), hasPrevious: false, hasNext: false, state: 'sent', ...extra });

let patched: unknown[] = [];
const fetchMock = jest.fn(async (url: string, init: { method: string; body?: string }) => {
  patched.push([init.method, new URL(url, 'http://x').pathname, init.body ? JSON.parse(init.body) : undefined]);
  const answer = storedMessage(1, { userCode: ADA.code, message: 'better', editedAt: '2026-01-02T00:00:00.000Z' });
  return { status: 200, ok: true, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(answer) };
});

beforeEach(() => {
  resetChat();
  resetReplyEdit();
  resetEditCursors();
  patched = [];
  sessionStore.token = 'T';
  sessionStore.user = { ...ADA, type: 1, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
  upsertGroup(chatGroup('G_one'));
});

function renderItem(message: ListedMessage, mine: boolean, onJumpToReply = jest.fn(), writable = true) {
  renderRoutes(
    [
      {
        path: '/messages/:groupId',
        element: (
          <MessageItem
            message={message}
            mine={mine}
            authorName="Bob"
            authorSurname="Builder"
            avatarUrl={null}
            canDelete={false}
            showingOriginal={false}
            onRetry={jest.fn()}
            onDelete={jest.fn()}
            onToggleOriginal={jest.fn()}
            onJumpToReply={onJumpToReply}
            writable={writable}
          />
        ),
      },
    ],
    '/messages/G_one',
  );
  return onJumpToReply;
}

describe('a reply and an edited message in the list', () => {
  it('shows the quote with its author and text, and clicking it jumps to the original', () => {
    const replyTo = { code: 'M1', seq: 1, type: 1, userCode: ADA.code, message: 'the question', files: 0, deleted: false };
    const onJump = renderItem(listed({ replyTo }), false);
    const quote = screen.getByTestId('chat-reply-quote');
    expect(quote).toHaveTextContent('Ada Lovelace');
    expect(quote).toHaveTextContent('the question');
    fireEvent.click(screen.getByTestId('chat-reply-jump'));
    expect(onJump).toHaveBeenCalledWith(replyTo);
  });

  it('shows a deleted original as deleted, and the edited marker', () => {
    const replyTo = { code: 'M1', seq: 1, type: 1, userCode: ADA.code, message: '', files: 0, deleted: true };
    renderItem(listed({ replyTo, editedAt: '2026-01-02T00:00:00.000Z' }), false);
    expect(screen.getByTestId('chat-reply-quote')).toHaveAttribute('data-deleted', 'true');
    expect(screen.getByTestId('chat-reply-quote')).toHaveTextContent('Message deleted');
    expect(screen.getByTestId('chat-message-edited')).toHaveTextContent('edited');
  });

  it('offers Reply on every message and Edit only on my own text messages', () => {
    renderItem(listed({ userCode: ADA.code }), true);
    fireEvent.click(screen.getByRole('button', { name: 'Message options' }));
    fireEvent.click(screen.getByTestId('chat-message-edit'));
    expect(replyEditStore.modes.G_one).toEqual({ kind: 'edit', code: 'M2', text: 'message 2' });
  });

  it('offers neither in a read-only view (a moderator watching a room)', () => {
    renderItem(listed({ userCode: ADA.code }), true, undefined, false);
    fireEvent.click(screen.getByRole('button', { name: 'Message options' }));
    expect(screen.queryByTestId('chat-message-reply')).toBeNull();
    expect(screen.queryByTestId('chat-message-edit')).toBeNull();
  });

  it("offers no Edit on someone else's message", () => {
    renderItem(listed(), false);
    fireEvent.click(screen.getByRole('button', { name: 'Message options' }));
    expect(screen.queryByTestId('chat-message-edit')).toBeNull();
    fireEvent.click(screen.getByTestId('chat-message-reply'));
    expect(replyEditStore.modes.G_one).toMatchObject({ kind: 'reply', replyTo: { code: 'M2', userCode: BOB.code } });
  });
});

describe('the composer in reply and edit mode', () => {
  const input = () => screen.getByTestId('chat-composer-input') as HTMLTextAreaElement;

  it('shows the quote above the field; Esc cancels the reply and keeps the text', async () => {
    const onSend = jest.fn();
    renderWithMantine(<Composer groupCode="G_one" enabled onSend={onSend} />);
    startReply(storedMessage(2));
    await waitFor(() => expect(screen.getByTestId('chat-composer-mode')).toHaveAttribute('data-mode', 'reply'));
    expect(screen.getByTestId('chat-composer-mode')).toHaveTextContent('message 2');
    fireEvent.change(input(), { target: { value: 'draft' } });
    fireEvent.keyDown(input(), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('chat-composer-mode')).toBeNull());
    expect(input().value).toBe('draft');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('fills the field with the text to edit; Enter saves it (REST while offline) and Esc cancels', async () => {
    receiveMessages([storedMessage(1, { userCode: ADA.code })]);
    const onSend = jest.fn();
    renderWithMantine(<Composer groupCode="G_one" enabled onSend={onSend} />);
    startEdit(storedMessage(1, { userCode: ADA.code }));
    await waitFor(() => expect(input().value).toBe('message 1'));
    expect(screen.getByTestId('chat-send')).toHaveAccessibleName('Save');

    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(input().value).toBe('');
    expect(replyEditStore.modes.G_one).toBeUndefined();

    startEdit(storedMessage(1, { userCode: ADA.code }));
    await waitFor(() => expect(input().value).toBe('message 1'));
    fireEvent.change(input(), { target: { value: 'better' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(replyEditStore.modes.G_one).toBeUndefined());
    expect(patched).toEqual([['PATCH', '/api/message/groups/G_one/messages/M1', { message: 'better' }]]);
    expect(threadOf('G_one').bySeq[1]).toMatchObject({ message: 'better', editedAt: '2026-01-02T00:00:00.000Z' });
    expect(input().value).toBe('');
    expect(onSend).not.toHaveBeenCalled();
  });
});
