import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { Role } from '#shared/contracts/roles';
import { type TestUser, createGroup, createInstance, createUser } from '../factories';
import { call, closeAllSockets, connect } from '../utils/sockets';
import { type BrowserHarness, screenshot, startHarness } from './harness';

jest.setTimeout(240_000);

let h: BrowserHarness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  closeAllSockets();
  await h?.close();
});

const BADGE = '[data-testid="chat-moderated-badge"]';

/**
 * Ways a tenant stylesheet could try to hide the moderated indicator, each one allowed by the custom CSS
 * rule. The indicator may move with its place in the header, but must stay on screen, on top and unchanged.
 */
const HIDING: [string, string][] = [
  ['display: none', `${BADGE}, [popover], :popover-open, body > :not(#root) { display: none !important }`],
  ['visibility', `${BADGE} { visibility: hidden !important } body { visibility: hidden !important } #root { visibility: visible !important }`],
  ['opacity', `${BADGE}, :popover-open { opacity: 0 !important }`],
  [
    'filters and masks',
    `${BADGE} { filter: opacity(0) blur(20px) !important; mask-image: linear-gradient(transparent, transparent) !important; mix-blend-mode: screen !important }`,
  ],
  ['clip-path', `${BADGE} { clip-path: inset(50%) !important }`],
  ['transforms', `${BADGE} { transform: scale(0) !important; scale: 0 !important; translate: -9999px !important; rotate: 90deg !important }`],
  ['a motion path', `${BADGE} { offset-path: path("M 0 0 L -5000 -5000") !important; offset-distance: 100% !important }`],
  ['no size', `${BADGE} { width: 0 !important; height: 0 !important; padding: 0 !important; overflow: hidden !important; box-sizing: border-box !important }`],
  [
    'off screen',
    `${BADGE} { position: fixed !important; left: -10000px !important; top: -10000px !important; inset: auto !important; margin: -9999px !important }`,
  ],
  ['its place moved off screen', '[data-testid="chat-moderated-slot"] { position: fixed !important; left: -10000px !important; top: -10000px !important }'],
  ['its place hidden', '[data-testid="chat-header-title"] { display: none !important }'],
  ['zoom', `${BADGE} { zoom: 0.01 !important } body { zoom: 0.05 !important } #root { zoom: 20 !important }`],
  ['an ancestor moved away', 'body { transform: translateX(-300vw) !important } #root { transform: translateX(300vw) !important }'],
  [
    'inherited text styles',
    `${BADGE}, body { font-size: 0 !important; color: transparent !important; -webkit-text-fill-color: transparent !important; text-indent: -9999px !important; ` +
      'letter-spacing: -3em !important; line-height: 0 !important; text-shadow: 0 0 8px #fff !important; writing-mode: vertical-rl !important } ' +
      '#root { font-size: 16px !important; color: #000 !important; -webkit-text-fill-color: currentcolor !important; text-indent: 0 !important; ' +
      'letter-spacing: normal !important; line-height: normal !important; text-shadow: none !important; writing-mode: horizontal-tb !important }',
  ],
  ['first line and letter', `${BADGE}::first-line, ${BADGE}::first-letter { color: transparent !important; font-size: 0 !important }`],
  [
    'its own pseudo-elements on top',
    `${BADGE}::before, ${BADGE}::after { content: "" !important; display: block !important; position: absolute !important; inset: -10px !important; ` +
      'background: #fff !important; z-index: 2147483647 !important }',
  ],
  ['an inset shadow', `${BADGE} { box-shadow: inset 0 0 0 200px #fff !important; outline: 200px solid #fff !important }`],
  [
    'an overlay over the header',
    '[data-testid="chat-header"] { position: relative !important } [data-testid="chat-header"]::after { content: ""; position: absolute; inset: 0; ' +
      'background: #fff; z-index: 2147483647 } body::after { content: ""; position: fixed; left: 0; right: 0; top: 0; height: 200px; ' +
      'background: #fff; z-index: 2147483647; pointer-events: none }',
  ],
  ['an animation', `@keyframes gone { to { opacity: 0; transform: scale(0) } } ${BADGE} { animation: gone 1ms forwards !important }`],
  ['its backdrop', `${BADGE}::backdrop { background: rgb(255 255 255 / 0.6) !important; backdrop-filter: blur(4px) }`],
  ['no pointer hits', `${BADGE} { pointer-events: none !important } `],
];

/** A host of its own, so its instance's hostile stylesheet touches no other test (Chromium sends *.localhost to this machine). */
function ownHost() {
  const hostName = `sec-css-${randomBytes(4).toString('hex')}.localhost`;
  return { hostName, base: `http://${hostName}:${new URL(h.baseUrl).port}` };
}

async function setCustomCss(admin: TestUser, customCss: string) {
  const res = await h.app.http().post('/api/Instance').set('Authorization', `Bearer ${admin.token}`).send({ customCss });
  expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
}

/** Fetches the tenant stylesheet again without a reload, as the admin screen does after a save. */
async function reloadTenantStyles(page: Page, version: number) {
  await page.evaluate(`new Promise((done, fail) => {
    const link = document.getElementById('instance-styles');
    link.onload = () => done();
    link.onerror = () => fail(new Error('the instance stylesheet did not load'));
    link.href = '/instance/styles.css?v=test-${version}';
  })`);
  await settled(page);
}

/** Until the indicator has kept its place for five frames (it follows its slot once a frame). */
async function settled(page: Page) {
  await page.evaluate(`new Promise((done) => {
    let last = '';
    let still = 0;
    const check = () => {
      const r = document.querySelector(${JSON.stringify(BADGE)}).getBoundingClientRect();
      const now = [r.left, r.top, r.width, r.height].join();
      still = now === last ? still + 1 : 0;
      last = now;
      if (still >= 5) done();
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })`);
}

interface Seen {
  width: number;
  height: number;
  inViewport: boolean;
  hitAtCentre: boolean;
  opacity: string;
  visibility: string;
  checkVisibility: boolean;
}

type Inspected = Seen & { rect: { x: number; y: number; width: number; height: number } };

async function inspect(page: Page): Promise<Inspected> {
  return page.evaluate<Inspected>(`(() => {
    const host = document.querySelector(${JSON.stringify(BADGE)});
    const r = host.getBoundingClientRect();
    const style = getComputedStyle(host);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {
      width: Math.round(r.width),
      height: Math.round(r.height),
      inViewport: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
      hitAtCentre: hit === host,
      opacity: style.opacity,
      visibility: style.visibility,
      checkVisibility: host.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true }),
      rect: { x: r.left, y: r.top, width: r.width, height: r.height },
    };
  })()`);
}

/** The indicator's pixels inside its rounded border, which must not change whatever the stylesheet says. */
async function inside(page: Page, rect: { x: number; y: number; width: number; height: number }) {
  return page.screenshot({ clip: { x: rect.x + 4, y: rect.y + 3, width: rect.width - 8, height: rect.height - 6 }, animations: 'disabled' });
}

/**
 * Whether two screenshots of the indicator show the same thing: at most 2 % of the pixels differ by more than a
 * quarter of a channel (anti-aliasing may shift; text that is hidden, covered or faded changes far more).
 */
async function looksTheSame(page: Page, a: Buffer, b: Buffer): Promise<boolean> {
  const blank = await page.context().newPage();
  try {
    const share = await blank.evaluate<number>(`(async () => {
      const load = (src) => new Promise((ok, fail) => { const img = new Image(); img.onload = () => ok(img); img.onerror = fail; img.src = src; });
      const [x, y] = await Promise.all([load('data:image/png;base64,${a.toString('base64')}'), load('data:image/png;base64,${b.toString('base64')}')]);
      if (x.width !== y.width || x.height !== y.height) return 1;
      const pixels = (img) => {
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const context = canvas.getContext('2d');
        context.drawImage(img, 0, 0);
        return context.getImageData(0, 0, img.width, img.height).data;
      };
      const p = pixels(x);
      const q = pixels(y);
      let differing = 0;
      for (let i = 0; i < p.length; i += 4) {
        if (Math.max(Math.abs(p[i] - q[i]), Math.abs(p[i + 1] - q[i + 1]), Math.abs(p[i + 2] - q[i + 2])) > 64) differing++;
      }
      return differing / (p.length / 4);
    })()`);
    return share <= 0.02;
  } finally {
    await blank.close();
  }
}

async function openWatchedChat(lang: 'eng' | 'pol', width: number, height: number) {
  const { hostName, base } = ownHost();
  const instance = await createInstance(h.app, { hosts: [hostName] });
  const admin = await createUser(h.app, { instanceId: instance.id, role: Role.InstanceAdmin, name: 'Mo', surname: 'Derator' });
  const ada = await createUser(h.app, { instanceId: instance.id, name: 'Ada', surname: 'Watched' });
  const bob = await createUser(h.app, { instanceId: instance.id, name: 'Bob', surname: 'Watched', lang });
  const group = await createGroup(h.app, [ada, bob]);

  const { page } = await h.open({ width, height });
  await page.goto(`${base}/auth`);
  await page.evaluate(
    `localStorage.setItem('token', ${JSON.stringify(bob.token)}); localStorage.setItem('language', '${lang}'); localStorage.setItem('menu.over.opened', 'false')`,
  );
  await page.goto(`${base}/messages/${group}`);
  await page.getByTestId('chat-conversation').waitFor();

  // The instance admin is the instance's moderator: they start watching the room.
  const moderator = await connect(h.baseUrl, admin.token);
  expect(await call(moderator, 'room:watch', { groupCode: group })).toEqual({ ok: true });
  await page.locator(BADGE).waitFor();
  await settled(page);
  return { page, admin };
}

const VISIBLE: Seen = {
  width: expect.any(Number) as unknown as number,
  height: expect.any(Number) as unknown as number,
  inViewport: true,
  hitAtCentre: true,
  opacity: '1',
  visibility: 'visible',
  checkVisibility: true,
};

describe('security: the moderated indicator is out of the tenant stylesheet’s reach', () => {
  it('stays visible, on top and unchanged under every hiding technique, one by one and all at once', async () => {
    const { page, admin } = await openWatchedChat('eng', 1280, 800);
    await page.getByRole('status', { name: 'Moderated' }).waitFor();
    const clean = await inspect(page);
    expect(clean).toMatchObject(VISIBLE);
    expect(clean.width).toBeGreaterThanOrEqual(60);
    expect(clean.height).toBeGreaterThanOrEqual(18);
    const pixels = await inside(page, clean.rect);
    await screenshot(page, '90-moderated-indicator-desktop');

    let version = 0;
    for (const [technique, css] of HIDING) {
      await setCustomCss(admin, css);
      await reloadTenantStyles(page, ++version);
      const seen = await inspect(page);
      expect({ technique, ...seen, rect: undefined }).toEqual({ technique, ...VISIBLE, width: clean.width, height: clean.height, rect: undefined });
      expect({ technique, same: await looksTheSame(page, await inside(page, seen.rect), pixels) }).toEqual({ technique, same: true });
    }

    await setCustomCss(admin, HIDING.map(([, css]) => css).join('\n'));
    await reloadTenantStyles(page, version + 1);
    const all = await inspect(page);
    expect({ ...all, rect: undefined }).toEqual({ ...VISIBLE, width: clean.width, height: clean.height, rect: undefined });
    expect(await looksTheSame(page, await inside(page, all.rect), pixels)).toBe(true);
    expect(await page.getByRole('status', { name: 'Moderated' }).count()).toBe(1);
    await screenshot(page, '91-moderated-indicator-under-hostile-css');
  });

  it('reads well on a phone in Polish, beside the chat name', async () => {
    const { page, admin } = await openWatchedChat('pol', 390, 844);
    await page.getByRole('status', { name: 'Moderowany' }).waitFor();
    const seen = await inspect(page);
    expect(seen).toMatchObject(VISIBLE);
    const title = await page.getByTestId('chat-header-title').boundingBox();
    expect(title).not.toBeNull();
    // Beside the name: on the title's line, inside the screen.
    expect(Math.abs(seen.rect.y + seen.rect.height / 2 - (title!.y + title!.height / 2))).toBeLessThanOrEqual(2);
    await screenshot(page, '92-moderated-indicator-phone-pl');
    // The chat list over the chat on a phone: the badge stays on top, where the chat's header is (docs/security.md).
    await page.getByTestId('chat-sidebar-toggle').click();
    await page.locator('[data-testid="chat-sidebar"][data-state="visible"]').waitFor();
    await settled(page);
    expect(await inspect(page)).toMatchObject(VISIBLE);
    await screenshot(page, '96-moderated-indicator-phone-chat-list-open');
    await setCustomCss(admin, HIDING.map(([, css]) => css).join('\n'));
    await reloadTenantStyles(page, 1);
    expect(await inspect(page)).toMatchObject({ ...VISIBLE, width: seen.width, height: seen.height });
    await screenshot(page, '93-moderated-indicator-phone-pl-hostile-css');
  });
});

/** Stylesheets stored before the rule against drawn text (or written to the database by hand), and the elements they write on. */
const DRAWN_TEXT: [string, string, string][] = [
  ['quotes', 'q.probe { quotes: "PHISHING TEXT, SEND YOUR PASSWORD" "" }', '<q class="probe"></q>'],
  ['a list-style string', 'ol.probe { list-style: "PHISHING TEXT, SEND YOUR PASSWORD" inside }', '<ol class="probe"><li></li></ol>'],
  [
    '@counter-style',
    '@counter-style phish { system: cyclic; symbols: "PHISHING"; suffix: " TEXT, SEND YOUR PASSWORD" } ol.probe { list-style: phish inside }',
    '<ol class="probe"><li></li></ol>',
  ],
  [
    '::marker content',
    'li.probe { display: list-item; list-style-position: inside } li.probe::marker { content: "PHISHING TEXT, SEND YOUR PASSWORD" }',
    '<li class="probe"></li>',
  ],
];

/** How wide each probe is drawn: a few pixels for a bare quotation mark or list number, hundreds for the sentence. */
const probeWidths = (page: Page, html: string): Promise<number[]> =>
  page.evaluate<number[]>(`(() => {
    const box = document.createElement('div');
    box.id = 'probes';
    box.style.cssText = 'position: fixed; left: 0; top: 0; z-index: 10000; background: #fff; font: 16px sans-serif';
    box.innerHTML = ${JSON.stringify(html)};
    document.getElementById('probes')?.remove();
    document.body.appendChild(box);
    return [...box.children].map((child) => {
      const el = child;
      if (el.tagName === 'Q') el.style.display = 'inline-block';
      el.style.width = 'max-content';
      el.style.padding = '0';
      el.style.margin = '0';
      return Math.round(el.getBoundingClientRect().width);
    });
  })()`);

describe('security: stored CSS that draws text is not drawn', () => {
  it('serves none of it, so Chromium draws no words of the stylesheet’s', async () => {
    const { page } = await h.open();
    const markup = DRAWN_TEXT.map(([, , html]) => html).join('');
    // Each vector stored on an instance of its own, so one the older rule already refused cannot hide another.
    const served: number[] = [];
    for (const [i, [, rule]] of DRAWN_TEXT.entries()) {
      const { hostName, base } = ownHost();
      await createInstance(h.app, { hosts: [hostName], customCss: `.brand-probe { color: red }\n${rule}` });
      await page.goto(`${base}/auth`);
      await page.getByTestId('login-form').waitFor();
      await page.waitForFunction("[...document.styleSheets].some((sheet) => (sheet.href || '').includes('/instance/styles.css'))");
      served.push((await probeWidths(page, markup))[i]);
    }
    await screenshot(page, '94-stored-text-css-not-drawn');
    // The same CSS put on the page by hand: Chromium would draw every one of them.
    await page.addStyleTag({ content: DRAWN_TEXT.map(([, rule]) => rule).join('\n') });
    const drawn = await probeWidths(page, markup);
    await screenshot(page, '95-text-css-drawn-when-injected-by-hand');
    DRAWN_TEXT.forEach(([vector], i) => {
      expect({ vector, drawnWhenInjected: drawn[i] > 200 }).toEqual({ vector, drawnWhenInjected: true });
      expect({ vector, servedWidth: served[i] < 60 }).toEqual({ vector, servedWidth: true });
    });
  });
});
