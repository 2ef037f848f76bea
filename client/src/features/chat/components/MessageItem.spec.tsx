import { fireEvent, screen } from '@testing-library/react';
import { current, renderRoutes } from '../../../../jest/render';
import { type ListedMessage } from '../chat-logic';
import { MessageItem, type MessageItemProps } from './MessageItem';

const message = (extra: Partial<ListedMessage> = {}): ListedMessage => ({
  code: 'M1',
  groupCode: 'G_one',
  seq: 1,
  type: 1,
  message: 'Cześć',
  language: 'pol',
  translation: null,
  userCode: 'U_bob',
  createdAt: new Date(2026, 0, 1, 12).toISOString(),
  files: [],
  clientKey: null,
  deleted: false,
  hasPrevious: false,
  hasNext: false,
  state: 'sent',
  ...extra,
});

function renderItem(props: Partial<MessageItemProps> = {}) {
  const handlers = { onRetry: jest.fn(), onDelete: jest.fn(), onToggleOriginal: jest.fn() };
  const all: MessageItemProps = {
    message: message(),
    mine: false,
    authorName: 'Bob',
    authorSurname: 'Builder',
    avatarUrl: null,
    canDelete: false,
    showingOriginal: false,
    ...handlers,
    ...props,
  };
  renderRoutes(
    [
      { path: '/messages/:groupId', element: <MessageItem {...all} /> },
      { path: '/u/:userCode', element: <p>profile page</p> },
    ],
    '/messages/G_one',
  );
  return { ...handlers, ...props };
}

const openMenu = () => fireEvent.click(screen.getByRole('button', { name: 'Message options' }));

describe('the per-message menu', () => {
  it('always links to the author profile; no translation or delete items when they do not apply', () => {
    renderItem();
    openMenu();
    expect(screen.queryByTestId('chat-message-translation')).toBeNull();
    expect(screen.queryByTestId('chat-message-delete')).toBeNull();
    fireEvent.click(screen.getByTestId('chat-message-profile'));
    expect(current.location?.pathname).toBe('/u/U_bob');
    expect(screen.getByText('profile page')).toBeInTheDocument();
  });

  it('shows the translation first and toggles to the original through the menu', () => {
    const { onToggleOriginal } = renderItem({ message: message({ translation: 'Hi' }) });
    expect(screen.getByTestId('chat-message-text')).toHaveTextContent('Hi');
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Show original' }));
    expect(onToggleOriginal).toHaveBeenCalledWith('M1');
  });

  it('offers "show translation" while the original is shown', () => {
    renderItem({ message: message({ translation: 'Hi' }), showingOriginal: true });
    expect(screen.getByTestId('chat-message-text')).toHaveTextContent('Cześć');
    openMenu();
    expect(screen.getByRole('menuitem', { name: 'Show translation' })).toBeInTheDocument();
  });

  it('says under a translation which language it was translated from, and offers the original there', () => {
    const { onToggleOriginal } = renderItem({ message: message({ translation: 'Hi' }) });
    expect(screen.getByTestId('chat-message-translated')).toHaveTextContent(/^Translated from Polish ·\s?Show original$/);
    fireEvent.click(screen.getByTestId('chat-message-translated-toggle'));
    expect(onToggleOriginal).toHaveBeenCalledWith('M1');
  });

  it('offers the translation under the original, and no such line for a message without one', () => {
    renderItem({ message: message({ translation: 'Hi' }), showingOriginal: true });
    expect(screen.getByTestId('chat-message-translated')).toHaveTextContent(/^Show translation$/);
  });

  it('shows no translation line for a message without a translation', () => {
    renderItem();
    expect(screen.queryByTestId('chat-message-translated')).toBeNull();
  });

  it('offers delete when allowed and hands the message code over', () => {
    const { onDelete } = renderItem({ canDelete: true });
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(onDelete).toHaveBeenCalledWith('M1');
  });

  it('shows a deleted message as the marker, without its text or a translation item', () => {
    renderItem({ message: message({ deleted: true, message: '', translation: null }) });
    expect(screen.getByTestId('chat-message-deleted')).toHaveTextContent('Message deleted');
    expect(screen.queryByTestId('chat-message-text')).toBeNull();
    openMenu();
    expect(screen.queryByTestId('chat-message-translation')).toBeNull();
  });
});

describe('messages with files', () => {
  it('shows a files-only message as its files, without an empty text bubble, and keeps the menu', () => {
    const { onDelete } = renderItem({ message: message({ message: '', files: ['F_1', 'F_2'] }), canDelete: true });
    expect(screen.queryByTestId('chat-message-bubble')).toBeNull();
    expect(screen.queryByTestId('chat-message-text')).toBeNull();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(onDelete).toHaveBeenCalledWith('M1');
  });

  it('shows the text bubble above the files when there is text', () => {
    renderItem({ message: message({ message: 'see attached', files: ['F_1'] }) });
    expect(screen.getByTestId('chat-message-bubble')).toHaveTextContent('see attached');
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });
});

describe('translation off', () => {
  it('says "Translation off" under another language no engine translates for the reader, with why', () => {
    renderItem({ message: message({ language: 'spa', message: 'Hola' }), translationOff: 'unsupported' });
    const line = screen.getByTestId('chat-message-translation-off');
    expect(line).toHaveTextContent('Translation off');
    expect(line).toHaveAttribute('title', 'No translation engine translates Spanish into your language');
  });

  it('names the server when machine translation is not set up at all', () => {
    renderItem({ message: message({ language: 'spa', message: 'Hola' }), translationOff: 'off' });
    expect(screen.getByTestId('chat-message-translation-off')).toHaveAttribute('title', 'Machine translation is not set up on this server');
  });

  it('says nothing under my own message', () => {
    renderItem({ message: message({ language: 'spa' }), translationOff: 'off', mine: true });
    expect(screen.queryByTestId('chat-message-translation-off')).toBeNull();
  });
});
