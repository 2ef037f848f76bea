import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { OfferForm } from './OfferForm';

const CONFIG = {
  languages: [
    { code: 'eng', locale: 'en_US', suggestedCurrencies: ['USD', 'EUR'] },
    { code: 'pol', locale: 'pl_PL', suggestedCurrencies: ['PLN', 'EUR'] },
  ],
  currencies: [
    { code: 'USD', name: 'US Dollar', decimals: 2 },
    { code: 'EUR', name: 'Euro', decimals: 2 },
    { code: 'PLN', name: 'Polish Zloty', decimals: 2 },
  ],
  defaultCurrency: 'USD',
};

beforeEach(() => {
  Object.assign(globalThis, {
    fetch: jest.fn(async () => ({ status: 200, ok: true, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(CONFIG) })),
  });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

const renderForm = (onSubmit = jest.fn()) => {
  render(
    <MantineProvider env="test">
      <OfferForm mode="create" busy={false} onSubmit={onSubmit} />
    </MantineProvider>,
  );
  return onSubmit;
};

describe('offer form', () => {
  it('shows no error before a field is touched, every rule on a submit attempt, and sends nothing invalid', async () => {
    preferencesStore.language = 'eng';
    const onSubmit = renderForm();
    expect(screen.getByTestId('offer-currency')).toHaveValue('USD');
    expect(screen.queryByText('The field is required')).toBeNull();
    fireEvent.click(screen.getByTestId('offer-submit'));
    await waitFor(() => expect(screen.getAllByText('The field is required')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('offer-amount'), { target: { value: '10.999' } });
    expect(await screen.findByText('Use at most 2 decimal places')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("sends the price, the local price in the language's suggested currency and the deadline as UTC ISO", async () => {
    preferencesStore.language = 'pol';
    const onSubmit = renderForm();
    // The local price's currency becomes Polish's first suggestion once the config is in.
    await waitFor(() => expect(screen.getByTestId('offer-local-currency')).toHaveValue('PLN'));
    // The price is in the Polish locale's currency (spec §9), not USD.
    expect(screen.getByTestId('offer-currency')).toHaveValue('PLN');
    fireEvent.change(screen.getByTestId('offer-amount'), { target: { value: '1 200,5' } });
    fireEvent.change(screen.getByTestId('offer-local-amount'), { target: { value: '4800' } });
    fireEvent.change(screen.getByTestId('offer-deadline'), { target: { value: '2030-05-06T10:15' } });
    fireEvent.change(screen.getByTestId('offer-message'), { target: { value: '  Hello  ' } });
    fireEvent.click(screen.getByTestId('offer-submit'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith(
      { price: { amount: '1200.5', currency: 'PLN' }, localPrice: { amount: '4800', currency: 'PLN' }, deadline: new Date('2030-05-06T10:15').toISOString() },
      'Hello',
    );
  });
});
