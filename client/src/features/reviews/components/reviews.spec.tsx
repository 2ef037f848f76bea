import { act, fireEvent, screen, within } from '@testing-library/react';
import type { JobOffer } from '@/api/offer.api';
import type { OfferReviews, Review, TrackRecord } from '@/api/review.api';
import { clearResponseCache, configureHttp } from '@/api/http';
import type { User } from '@/api/types';
import type { ChatGroup, ChatMessage } from '@/api/chat.api';
import { chatStore } from '@/features/chat/chat.store';
import { ProfilePage } from '@/features/profile/ProfilePage';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { sessionStore } from '@/features/session/session.store';
import { i18n } from '@/i18n/i18n';
import { renderRoutes, renderWithMantine } from '../../../../jest/render';
import { trackRecordStore } from '../track-record.store';
import { OfferReviewsCard } from './OfferReviewsCard';
import { TrackRecordLine } from './TrackRecordLine';

const ADA: User = {
  code: 'U_ada',
  name: 'Ada',
  surname: 'Lovelace',
  type: 1,
  avatar: { code: 'initials', url: null },
  country: null,
  lang: 'eng',
  timezone: null,
  jobIds: [],
  away: 0,
};
const BOB: User = { ...ADA, code: 'U_bob', name: 'Bob', surname: 'Builder' };
const person = (u: User) => ({ code: u.code, name: u.name, surname: u.surname });

const review = (fields: Partial<Review>): Review => ({
  code: 'R_1',
  offerCode: 'O_1',
  jobCode: 'J_1',
  rating: 5,
  text: 'Careful, quick work.',
  authorRole: 'customer',
  author: person(ADA),
  subject: person(BOB),
  createdAt: '2026-01-02T10:00:00.000Z',
  publishedAt: '2026-01-03T10:00:00.000Z',
  reply: null,
  ...fields,
});
const BOB_RECORD: TrackRecord = { userCode: 'U_bob', average: 4.5, count: 2, completedDeals: 3, replySeconds: 5400 };
const OFFER = { code: 'O_1', jobCode: 'J_1', groupCode: 'G_1', status: 200, providerCode: 'U_bob', customerCode: 'U_ada' } as JobOffer;

/** The server as the test sets it up: answers by "METHOD /path", and every request it got. */
let answers: Record<string, (body: unknown) => [number, unknown]> = {};
const requests: { key: string; body: unknown }[] = [];
const fetchMock = jest.fn(async (url: string, init: { method: string; body?: string }) => {
  const key = `${init.method} ${new URL(url, 'http://x').pathname}`;
  const body = init.body ? JSON.parse(init.body) : undefined;
  requests.push({ key, body });
  const [status, answer] = answers[key]?.(body) ?? [404, { code: 404, message: 'SHARED.ERROR.NOT_FOUND' }];
  return { status, ok: status < 400, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(answer) };
});
const renderCard = () => renderRoutes([{ path: '/o', element: <OfferReviewsCard offer={OFFER} meCode="U_ada" otherCode="U_bob" /> }], '/o');
const settle = () =>
  act(async () => {
    for (let i = 0; i < 30; i++) await Promise.resolve();
  });

beforeEach(() => {
  sessionStore.token = 'T';
  sessionStore.user = ADA;
  trackRecordStore.byUser = {};
  requests.length = 0;
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

describe('a profile with reviews', () => {
  it('shows the mean, the count, the deals, the usual reply time and the published reviews with their replies', async () => {
    answers = {
      'GET /api/user/U_bob': () => [200, BOB],
      'POST /api/user/statuses': () => [200, []],
      'GET /api/user/U_bob/track-record': () => [200, BOB_RECORD],
      'GET /api/user/U_bob/reviews': () => [
        200,
        {
          reviews: [review({ reply: { text: 'Thank you!', at: '2026-01-04T10:00:00.000Z' } }), review({ code: 'R_2', rating: 4, text: 'Good.' })],
          page: 1,
          pageSize: 20,
          hasMore: false,
        },
      ],
    };
    renderRoutes([{ path: '/u/:userCode', element: <ProfilePage /> }], '/u/U_bob');
    await settle();
    expect(screen.getByTestId('profile-rating-average')).toHaveTextContent('4.5');
    expect(screen.getByTestId('profile-rating-count')).toHaveTextContent('2 reviews');
    expect(screen.getByTestId('profile-rating')).toHaveTextContent('3 completed deals');
    expect(screen.getByTestId('profile-rating')).toHaveTextContent('usually replies within 2 hours');
    const items = screen.getAllByTestId('review');
    expect(items.map((i) => i.getAttribute('data-code'))).toEqual(['R_1', 'R_2']);
    expect(within(items[0]).getByTestId('review-reply')).toHaveTextContent('Reply from Bob Builder');
    // Not Bob's own profile: no reply form for the reader.
    expect(screen.queryByTestId('review-reply-form')).toBeNull();
  });
});

describe('the review form of a closed deal', () => {
  it('asks for stars and a text, then shows the review as hidden until the other party writes', async () => {
    let reviews: OfferReviews = { canWrite: true, windowEndsAt: '2026-01-15T10:00:00.000Z', published: false, mine: null, others: [], otherWritten: true };
    answers = {
      'GET /api/jobs/J_1/offers/O_1/reviews': () => [200, reviews],
      'GET /api/user/U_bob/track-record': () => [200, BOB_RECORD],
      'POST /api/jobs/J_1/offers/O_1/reviews': (body) => {
        const mine = review({ ...(body as { rating: number; text: string }), publishedAt: null });
        reviews = { ...reviews, canWrite: false, mine };
        return [201, mine];
      },
    };
    renderCard();
    await settle();
    expect(screen.getByTestId('offer-reviews')).toHaveTextContent('The other party has reviewed you. Write your review to see theirs');

    await act(async () => fireEvent.click(screen.getByTestId('review-form-submit')));
    expect(screen.getByText('Choose 1 to 5 stars')).toBeInTheDocument();
    expect(screen.getByText('Write a few words about the deal')).toBeInTheDocument();
    expect(requests.filter((r) => r.key.startsWith('POST'))).toEqual([]);

    fireEvent.click(screen.getByRole('radio', { name: '4 stars out of 5' }).nextElementSibling!);
    fireEvent.change(screen.getByTestId('review-form-text'), { target: { value: '  Paid on time.  ' } });
    await act(async () => fireEvent.click(screen.getByTestId('review-form-submit')));
    await settle();
    expect(requests.find((r) => r.key === 'POST /api/jobs/J_1/offers/O_1/reviews')?.body).toEqual({ rating: 4, text: 'Paid on time.' });
    expect(screen.queryByTestId('review-form')).toBeNull();
    expect(screen.getByTestId('review')).toHaveAttribute('data-published', 'false');
    expect(screen.getByTestId('review-hidden')).toHaveTextContent('Hidden for now');
    expect(screen.getByTestId('offer-reviews-waiting')).toBeInTheDocument();
  });

  it("offers the reviewed party one reply to the other's published review", async () => {
    const aboutMe = review({ code: 'R_b', author: person(BOB), subject: person(ADA), authorRole: 'provider', text: 'Clear brief.' });
    let reviews: OfferReviews = {
      canWrite: false,
      windowEndsAt: '2026-01-15T10:00:00.000Z',
      published: true,
      mine: review({}),
      others: [aboutMe],
      otherWritten: false,
    };
    answers = {
      'GET /api/jobs/J_1/offers/O_1/reviews': () => [200, reviews],
      'POST /api/reviews/R_b/reply': (body) => {
        const replied = { ...aboutMe, reply: { text: (body as { text: string }).text, at: '2026-01-05T10:00:00.000Z' } };
        reviews = { ...reviews, others: [replied] };
        return [200, replied];
      },
    };
    renderCard();
    await settle();
    expect(screen.getByText('Their review of you')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('review-reply-text'), { target: { value: 'Thanks, Bob.' } });
    await act(async () => fireEvent.click(screen.getByTestId('review-reply-submit')));
    await settle();
    expect(requests.find((r) => r.key === 'POST /api/reviews/R_b/reply')?.body).toEqual({ text: 'Thanks, Bob.' });
    expect(screen.queryByTestId('review-reply-form')).toBeNull();
    expect(screen.getByTestId('review-reply')).toHaveTextContent('Thanks, Bob.');
  });

  it("shows the other party's review as soon as the publication note reaches the deal's chat", async () => {
    const hidden: OfferReviews = {
      canWrite: false,
      windowEndsAt: '2026-01-15T10:00:00.000Z',
      published: false,
      mine: review({ publishedAt: null }),
      others: [],
      otherWritten: false,
    };
    let reviews = hidden;
    answers = {
      'GET /api/jobs/J_1/offers/O_1/reviews': () => [200, reviews],
      'GET /api/user/U_bob/track-record': () => [200, BOB_RECORD],
    };
    chatStore.groups = { G_1: { code: 'G_1', lastMessage: null } as unknown as ChatGroup };
    renderCard();
    await settle();
    expect(screen.getAllByTestId('review')).toHaveLength(1);

    reviews = {
      ...hidden,
      published: true,
      mine: review({}),
      others: [review({ code: 'R_b', author: person(BOB), subject: person(ADA), text: 'Clear brief.' })],
    };
    await act(async () => {
      chatStore.groups.G_1.lastMessage = { code: 'M_9', message: 'REVIEW.MESSAGE.PUBLISHED', offerNote: true } as ChatMessage;
    });
    await settle();
    expect(screen.getAllByTestId('review').map((r) => r.getAttribute('data-code'))).toEqual(['R_1', 'R_b']);
    expect(requests.filter((r) => r.key === 'GET /api/user/U_bob/track-record')).toHaveLength(1);
    chatStore.groups = {};
  });

  it('shows nothing for an offer that closed without a deal', async () => {
    answers = {
      'GET /api/jobs/J_1/offers/O_1/reviews': () => [
        200,
        { canWrite: false, windowEndsAt: null, published: false, mine: null, others: [], otherWritten: false },
      ],
    };
    renderCard();
    await settle();
    expect(screen.queryByTestId('offer-reviews')).toBeNull();
  });
});

describe('the track record line', () => {
  it('reads in Polish with Polish plurals and decimals', async () => {
    answers = { 'GET /api/user/U_bob/track-record': () => [200, BOB_RECORD] };
    const language = preferencesStore.language;
    await act(() => i18n.changeLanguage('pl'));
    preferencesStore.language = 'pol';
    try {
      renderWithMantine(<TrackRecordLine userCode="U_bob" />);
      await settle();
      expect(screen.getByTestId('track-record')).toHaveTextContent('4,5 (2 opinie) · 3 zakończone transakcje · zwykle odpowiada w ciągu 2 godzin');
    } finally {
      preferencesStore.language = language;
      await act(() => i18n.changeLanguage('en'));
    }
  });
});
