import { formatOfferMoney, formatPriceWithLocal } from './offer-format';

// Intl puts a narrow no-break space in Polish groups and before the currency; compare with plain spaces.
const plain = (s: string | null) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');

describe('offer screens: money and deadlines', () => {
  it('formats money per language with 2 decimals and grouping', () => {
    expect(plain(formatOfferMoney({ amount: '2400.00', currency: 'PLN' }, 'eng'))).toBe('PLN 2,400.00');
    expect(plain(formatOfferMoney({ amount: '2400.00', currency: 'PLN' }, 'pol'))).toBe('2 400,00 zł');
    expect(formatOfferMoney({ amount: '120.5', currency: 'USD' }, 'eng')).toBe('$120.50');
    expect(plain(formatOfferMoney({ amount: '120.5', currency: 'USD' }, 'pol'))).toBe('120,50 USD');
    expect(formatOfferMoney({ amount: '1500', currency: 'JPY' }, 'eng')).toBe('¥1,500');
    expect(formatOfferMoney(null, 'eng')).toBe('');
  });

  it('shows the local price only when it says something the price does not', () => {
    expect(formatPriceWithLocal({ amount: '10.00', currency: 'USD' }, { amount: '10.00', currency: 'USD' }, 'eng')).toEqual({ price: '$10.00', local: null });
    expect(plain(formatPriceWithLocal({ amount: '10.00', currency: 'USD' }, { amount: '40.00', currency: 'PLN' }, 'pol').local)).toBe('40,00 zł');
    expect(formatPriceWithLocal(null, null, 'eng')).toEqual({ price: '', local: null });
  });
});
