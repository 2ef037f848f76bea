import { act, fireEvent, screen } from '@testing-library/react';
import { resetTranslationStatus, translationStatus } from '@/features/chat/translation-status';
import { sessionStore } from '@/features/session/session.store';
import type { User } from '@/api/types';
import { renderRoutes } from '../../../jest/render';
import { SettingsMenu } from './SettingsMenu';

const openSettings = () => {
  renderRoutes([{ path: '*', element: <SettingsMenu /> }], '/');
  fireEvent.click(screen.getByTestId('settings-button'));
  return screen.getByTestId('translate-messages-switch');
};

describe('the "Translate messages into my language" setting', () => {
  beforeEach(() => {
    resetTranslationStatus();
    sessionStore.user = { lang: 'pol' } as User;
  });
  afterAll(() => {
    sessionStore.user = null;
    resetTranslationStatus();
  });

  it('is offered while an engine translates into my language', async () => {
    await act(async () => Object.assign(translationStatus, { known: true, enabled: true, pairs: [{ from: 'eng', to: 'pol' }] }));
    const toggle = openSettings();
    expect(toggle).toBeEnabled();
    expect(toggle).toBeChecked();
  });

  it('says translation is off, and offers nothing, when no engine translates into my language', async () => {
    await act(async () => Object.assign(translationStatus, { known: true, enabled: true, pairs: [{ from: 'spa', to: 'eng' }] }));
    const toggle = openSettings();
    expect(toggle).toBeDisabled();
    expect(toggle).not.toBeChecked();
    expect(screen.getByText('Translation off: no engine translates into your language')).toBeInTheDocument();
  });

  it('says so when machine translation is not set up at all', async () => {
    await act(async () => Object.assign(translationStatus, { known: true, enabled: false, pairs: [] }));
    expect(openSettings()).toBeDisabled();
    expect(screen.getByText('Translation off: machine translation is not set up on this server')).toBeInTheDocument();
  });
});
