import { act, fireEvent, screen } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import { resetTranslationStatus, translationStatus } from '@/features/chat/translation-status';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { sessionStore } from '@/features/session/session.store';
import { renderRoutes } from '../../../../jest/render';
import { JobView } from './JobView';

type Handler = (url: string) => [number, unknown];
let routes: Record<string, Handler> = {};
const asked: string[] = [];
const fetchMock = jest.fn(async (url: string, init: { method: string }) => {
  const path = new URL(url, 'http://x').pathname;
  asked.push(`${init.method} ${path}${new URL(url, 'http://x').search}`);
  const [status, answer] = routes[`${init.method} ${path}`]?.(url) ?? [404, { code: 404, message: 'SHARED.ERROR.NOT_FOUND' }];
  return { status, ok: status < 400, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(answer) };
});

const spanishJob = {
  code: 'J_one',
  deadline: null,
  customerCode: 'U_cust',
  acceptingOffers: true,
  lang: 'spa',
  title: 'Pintar la cocina',
  description: 'Necesitamos pintar la cocina.',
  versions: [{ lang: 'spa', title: 'Pintar la cocina', description: 'Necesitamos pintar la cocina.', isDefault: true }],
  offerCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

beforeEach(() => {
  routes = { 'GET /api/job/J_one': () => [200, spanishJob] };
  asked.length = 0;
  sessionStore.token = 'T';
  sessionStore.user = { code: 'U_ada', name: 'Ada', surname: 'L', avatar: null, type: 1, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };
  preferencesStore.language = 'eng';
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
  resetTranslationStatus();
});

const renderJob = () => renderRoutes([{ path: '/jobs/:code', element: <JobView code="J_one" /> }], '/jobs/J_one');

describe("a job without a version in the reader's language", () => {
  it('offers "Translate", shows the machine translation labelled as such, and the original one tap away', async () => {
    Object.assign(translationStatus, { known: true, enabled: true, pairs: [{ from: 'spa', to: 'eng' }] });
    routes['POST /api/job/J_one/machine-translation'] = () => [
      200,
      { lang: 'eng', from: 'spa', title: 'Paint the kitchen', description: 'We need to paint the kitchen.', engine: 'apertium', machine: true },
    ];
    renderJob();
    expect(await screen.findByTestId('job-title')).toHaveTextContent('Pintar la cocina');
    await act(async () => fireEvent.click(screen.getByTestId('job-translate')));
    expect(await screen.findByTestId('job-machine-translation')).toHaveTextContent("Machine translation from Spanish, not the customer's text");
    expect(screen.getByTestId('job-title')).toHaveTextContent('Paint the kitchen');
    expect(screen.getByTestId('job-description')).toHaveTextContent('We need to paint the kitchen.');
    expect(asked).toContain('POST /api/job/J_one/machine-translation?lang=eng');
    fireEvent.click(screen.getByTestId('job-machine-translation-toggle'));
    expect(screen.getByTestId('job-title')).toHaveTextContent('Pintar la cocina');
  });

  it('says "Translation off" instead when no engine serves the pair, and asks for nothing', async () => {
    Object.assign(translationStatus, { known: true, enabled: true, pairs: [{ from: 'eng', to: 'spa' }] });
    renderJob();
    expect(await screen.findByTestId('job-translation-off')).toHaveTextContent('Translation off');
    expect(screen.queryByTestId('job-translate')).toBeNull();
    expect(asked.filter((a) => a.includes('machine-translation'))).toEqual([]);
  });

  it('offers nothing when the job has a version in the reader language', async () => {
    Object.assign(translationStatus, { known: true, enabled: true, pairs: [{ from: 'spa', to: 'eng' }] });
    routes['GET /api/job/J_one'] = () => [
      200,
      { ...spanishJob, versions: [...spanishJob.versions, { lang: 'eng', title: 'Paint it', description: 'Paint it all.', isDefault: false }] },
    ];
    renderJob();
    expect(await screen.findByTestId('job-title')).toHaveTextContent('Paint it');
    expect(screen.queryByTestId('job-translate')).toBeNull();
    expect(screen.queryByTestId('job-translation-off')).toBeNull();
  });
});
