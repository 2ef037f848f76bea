import { fireEvent, renderHook, screen } from '@testing-library/react';
import { offerStore } from '@/features/offers/offer.store';
import { OfferStatus } from '@/features/offers/offer-status';
import { preferencesStore } from '@/features/preferences/preferences.store';
import type { JobOffer } from '@/api/offer.api';
import { i18n } from '@/i18n/i18n';
import { renderRoutes, renderWithMantine } from '../../../jest/render';
import { Composer } from '../chat/components/Composer';
import { MessageItem } from '../chat/components/MessageItem';
import type { ListedMessage } from '../chat/chat-logic';
import { useOffPlatformGuard } from './off-platform-guard';

const type = (text: string) => fireEvent.change(screen.getByTestId('chat-composer-input'), { target: { value: text } });
const send = () => fireEvent.click(screen.getByTestId('chat-send'));

afterEach(async () => {
  preferencesStore.language = 'eng';
  await i18n.changeLanguage('en');
  offerStore.byCode = {};
});

describe('the composer warning', () => {
  it('holds a message with a phone number until the writer sends it anyway', () => {
    const onSend = jest.fn();
    renderWithMantine(<Composer groupCode="G_one" enabled onSend={onSend} warnOffPlatform />);
    type('Call me on +48 601 234 567');
    send();
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByTestId('off-platform-warning')).toHaveTextContent('Your message contains a phone number.');
    fireEvent.click(screen.getByTestId('off-platform-send-anyway'));
    expect(onSend).toHaveBeenCalledWith('Call me on +48 601 234 567', [], 'eng');
    expect(screen.queryByTestId('off-platform-warning')).toBeNull();
  });

  it('lets the writer edit instead: nothing is sent, the field keeps the text and has the focus', () => {
    const onSend = jest.fn();
    renderWithMantine(<Composer groupCode="G_one" enabled onSend={onSend} warnOffPlatform />);
    type('Pay me directly via PayPal: jan@example.com');
    send();
    expect(screen.getByTestId('off-platform-warning')).toHaveAttribute('data-kinds', 'email payment');
    fireEvent.click(screen.getByTestId('off-platform-edit'));
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.queryByTestId('off-platform-warning')).toBeNull();
    expect(screen.getByTestId('chat-composer-input')).toHaveValue('Pay me directly via PayPal: jan@example.com');
    expect(screen.getByTestId('chat-composer-input')).toHaveFocus();
    type('See you on Friday, the price stays 1 200 zł');
    send();
    expect(onSend).toHaveBeenCalledWith('See you on Friday, the price stays 1 200 zł', [], 'eng');
  });

  it('says it in Polish', async () => {
    await i18n.changeLanguage('pl');
    renderWithMantine(<Composer groupCode="G_one" enabled onSend={jest.fn()} warnOffPlatform />);
    type('Zapłać mi bezpośrednio, BLIK na numer');
    send();
    expect(screen.getByTestId('off-platform-warning')).toHaveTextContent('Twoja wiadomość zawiera: prośbę o płatność poza Parley.');
    expect(screen.getByTestId('off-platform-send-anyway')).toHaveTextContent('Wyślij mimo to');
  });

  it('sends at once where it does not warn (after Agreed, other chats)', () => {
    const onSend = jest.fn();
    renderWithMantine(<Composer groupCode="G_one" enabled onSend={onSend} />);
    type('Call me on +48 601 234 567');
    send();
    expect(onSend).toHaveBeenCalled();
    expect(screen.queryByTestId('off-platform-warning')).toBeNull();
  });
});

describe('which chats warn', () => {
  const offer = (status: number) => ({ code: 'O1', status, version: 1 }) as unknown as JobOffer;
  const guard = (group: { type: number; targetId: string | null }) => renderHook(() => useOffPlatformGuard(group)).result.current;

  it('warns in an offer chat before Agreed, and while the offer loads; not after, nor in other chats', () => {
    expect(guard({ type: 4, targetId: 'O1' })).toBe(true);
    offerStore.byCode.O1 = { state: 'loaded', offer: offer(OfferStatus.CustomerApproved) };
    expect(guard({ type: 4, targetId: 'O1' })).toBe(true);
    offerStore.byCode.O1 = { state: 'loaded', offer: offer(OfferStatus.Agreed) };
    expect(guard({ type: 4, targetId: 'O1' })).toBe(false);
    offerStore.byCode.O1 = { state: 'loaded', offer: offer(OfferStatus.Closed) };
    expect(guard({ type: 4, targetId: 'O1' })).toBe(false);
    expect(guard({ type: 1, targetId: null })).toBe(false);
    expect(guard({ type: 3, targetId: 'J1' })).toBe(false);
  });
});

describe('the reader side', () => {
  const message = (extra: Partial<ListedMessage> = {}): ListedMessage => ({
    code: 'M1',
    groupCode: 'G_one',
    seq: 1,
    type: 1,
    message: 'Call me on +48 601 234 567',
    language: 'eng',
    translation: null,
    userCode: 'U_bob',
    createdAt: new Date(2026, 0, 1, 12).toISOString(),
    files: [],
    clientKey: null,
    deleted: false,
    hasPrevious: false,
    hasNext: false,
    state: 'sent',
    offPlatform: true,
    ...extra,
  });
  const renderItem = (m: ListedMessage, mine: boolean, moderating = false) =>
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <MessageItem
              message={m}
              mine={mine}
              moderating={moderating}
              authorName="Bob"
              authorSurname="B"
              avatarUrl={null}
              canDelete={false}
              showingOriginal={false}
              onRetry={jest.fn()}
              onDelete={jest.fn()}
              onToggleOriginal={jest.fn()}
            />
          ),
        },
      ],
      '/',
    );

  it('shows the reader a safety note on a marked message, and the moderators a flag', () => {
    renderItem(message(), false);
    expect(screen.getByTestId('off-platform-note')).toHaveTextContent('Safety note: this message shares contact details');
    expect(screen.queryByTestId('off-platform-flag')).toBeNull();
  });

  it('flags it for a moderator', () => {
    renderItem(message(), false, true);
    expect(screen.getByTestId('off-platform-flag')).toHaveTextContent('Off-platform');
  });

  it('tells the author the other party sees the note; nothing on unmarked or deleted messages', () => {
    renderItem(message(), true);
    expect(screen.getByTestId('off-platform-note')).toHaveTextContent('The other party sees a safety note');
  });

  it('shows nothing on a message the server did not mark, nor on a deleted one', () => {
    renderItem(message({ offPlatform: undefined }), false);
    expect(screen.queryByTestId('off-platform-note')).toBeNull();
  });
});
