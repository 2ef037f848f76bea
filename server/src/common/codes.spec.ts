import { CODE_PATTERN, newCode } from './codes';

describe('newCode', () => {
  it('makes URL-safe codes of 96 random bits, none repeated across many pool refills', () => {
    const codes = Array.from({ length: 5000 }, newCode);
    for (const code of codes) {
      expect(code).toMatch(CODE_PATTERN);
      expect(Buffer.from(code, 'base64url')).toHaveLength(12);
    }
    expect(new Set(codes).size).toBe(codes.length);
  });
});
