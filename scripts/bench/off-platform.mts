// Benchmark: the off-platform detector (shared/contracts/off-platform.ts) on typical chat messages, as the send path
// runs it once per text message. Prints the time per message for clean short, clean long (with prices and dates)
// and flagged texts, median of ROUNDS rounds. Asserts nothing.
// Usage: npm run bench:off-platform -- [rounds=7] [messages per round=200000]
import { performance } from 'node:perf_hooks';
import { detectOffPlatform } from '../../shared/contracts/off-platform.ts';

const args = process.argv.slice(2);
const ROUNDS = Number(args[0] ?? 7);
const PER_ROUND = Number(args[1] ?? 200_000);

const SETS: Record<string, string[]> = {
  'clean, short': ['ok, thanks!', 'Sounds good', 'Kiedy możesz zacząć?', 'I will send the files tomorrow', 'Dzięki, pasuje 👍'],
  'clean, with numbers': [
    'The price is 1 200 zł including VAT, deadline 12.03.2026, revisions until 14:30 on Friday',
    'Order #123456789 arrived; budget up to $1,500, 15% deposit, delivery to 00-950 Warszawa',
    'Zamówienie nr 2026/03/000123, faktura FV/2026/03/1234, termin 15.04.2026 r. godz. 10:00',
  ],
  'clean, long (600 chars)': ['Hi! I read the brief carefully and I think I understand what you need. '.repeat(8) + 'Let me know about the price of 2 400 zł.'],
  flagged: ['Call me on +48 601 234 567', 'Zapłać mi bezpośrednio, BLIK na numer', 'jan.kowalski@gmail.com', 'Let us move to WhatsApp'],
};

let sink = 0;
for (const [name, texts] of Object.entries(SETS)) {
  const perMessage: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (let i = 0; i < PER_ROUND; i++) sink += detectOffPlatform(texts[i % texts.length]).length;
    perMessage.push(((performance.now() - started) * 1000) / PER_ROUND);
  }
  perMessage.sort((a, b) => a - b);
  const median = perMessage[Math.floor(ROUNDS / 2)];
  console.log(`${name.padEnd(24)} median ${median.toFixed(2)} µs/message (rounds: ${perMessage.map((v) => v.toFixed(2)).join(', ')})`);
}
if (sink < 0) console.log(sink);
