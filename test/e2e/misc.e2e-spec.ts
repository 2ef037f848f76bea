import { CURRENCIES, DEFAULT_CURRENCY } from '#shared/contracts/currencies';
import { createTestApp, TestApp } from '../utils/create-app';

interface Zone {
  name: string;
  abbr: string;
  offset: number;
}

describe('misc calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('GET /api/timezone', () => {
    it('lists every IANA zone with its abbreviation and offset in minutes, without login', async () => {
      const res = await t.http().get('/api/timezone').expect(200);
      const zones: Zone[] = res.body;
      expect(zones.length).toBe(new Set(['UTC', ...Intl.supportedValuesOf('timeZone')]).size);
      expect(new Set(zones.map((z) => z.name)).size).toBe(zones.length);
      for (const z of zones) {
        expect(Object.keys(z).sort()).toEqual(['abbr', 'name', 'offset']);
        expect(typeof z.abbr).toBe('string');
        expect(z.abbr.length).toBeGreaterThan(0);
        expect(Number.isInteger(z.offset) && z.offset >= -12 * 60 && z.offset <= 14 * 60).toBe(true);
      }
      const byName = new Map(zones.map((z) => [z.name, z]));
      expect(byName.get('UTC')).toEqual({ name: 'UTC', abbr: 'UTC', offset: 0 });
      expect([60, 120]).toContain(byName.get('Europe/Warsaw')?.offset);
      expect(['CET', 'CEST']).toContain(byName.get('Europe/Warsaw')?.abbr);
      expect([-300, -240]).toContain(byName.get('America/New_York')?.offset);
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
    });

    it('answers the same list again from its cache, under any letter case', async () => {
      const [a, b] = await Promise.all([t.http().get('/api/timezone'), t.http().get('/api/TimeZone').set('Authorization', 'Bearer junk')]);
      expect(b.status).toBe(200);
      expect(b.body).toEqual(a.body);
    });

    it('refuses other methods with 405', async () => {
      const res = await t.http().post('/api/timezone').send({}).expect(405);
      expect(res.body).toEqual({ code: 405, message: 'SHARED.ERROR.METHOD_NOT_ALLOWED' });
    });
  });

  describe('GET /assets/config.json', () => {
    it("lists the spec's languages and locales with suggested currencies, and the currencies, without login", async () => {
      const res = await t.http().get('/assets/config.json').expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body.languages.map((l: { code: string; locale: string }) => `${l.code}:${l.locale}`)).toEqual([
        'eng:en_US',
        'pol:pl_PL',
        'rus:ru_RU',
        'hin:in_HI',
        'ger:de_DE',
        'spa:es_ES',
        'fra:fr_FR',
      ]);
      expect(res.body.currencies).toEqual(CURRENCIES);
      expect(res.body.defaultCurrency).toBe(DEFAULT_CURRENCY);
      expect(DEFAULT_CURRENCY).toBe('USD');
      const known = new Set(res.body.currencies.map((c: { code: string }) => c.code));
      expect(known.size).toBe(res.body.currencies.length);
      for (const language of res.body.languages) {
        expect(language.suggestedCurrencies.length).toBeGreaterThan(0);
        for (const code of language.suggestedCurrencies) expect(known.has(code)).toBe(true);
      }
      expect(res.body.languages[0].suggestedCurrencies[0]).toBe('USD');
      expect(res.body.languages[1].suggestedCurrencies[0]).toBe('PLN');
    });

    it('is served only outside /api', async () => {
      await t.http().get('/api/assets/config.json').expect(404);
      await t.http().get('/assets/other.json').set('Accept', 'application/json').expect(404);
    });
  });
});
