import { urlBase64ToBytes } from './push';

describe('push key', () => {
  it('decodes the URL-safe base64 VAPID key into bytes', () => {
    expect(Array.from(urlBase64ToBytes('AQID_-8'))).toEqual([1, 2, 3, 255, 239]);
    expect(urlBase64ToBytes('BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U')).toHaveLength(65);
  });
});
