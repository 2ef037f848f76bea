import { randomBytes } from 'node:crypto';
import { Role } from '#shared/contracts/roles';
import { createInstance, createUser } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';

const refused = (...brokenRules: string[]) => ({ code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules } });
const host = () => `css-sec-${randomBytes(4).toString('hex')}.test`;

/** Stylesheets that would make the browser draw words the tenant chose, one way each. */
export const TEXT_VECTORS: [string, string][] = [
  ['quotes with strings', 'q { quotes: "Session expired: " "" } q::before { content: open-quote }'],
  ['quotes through a custom property', ':root { --q: "Call +48 800 000 000" "" } q { quotes: var(--q) }'],
  ['a list-style string', 'li { list-style: "Your password: " inside }'],
  ['a list-style-type string', 'li { list-style-type: "\\56 erify your account " }'],
  ['a list-style-type with letters', 'li:nth-child(1) { counter-set: list-item 8 } li { list-style-type: lower-alpha }'],
  ['@counter-style symbols', '@counter-style phish { system: cyclic; symbols: "Login" "again"; } li { list-style-type: phish }'],
  ['@counter-style prefix and suffix', '@counter-st\\79le p { system: extends decimal; prefix: "Pay "; suffix: " now"; }'],
  ['@counter-style additive symbols and pad', '@counter-style a { system: additive; additive-symbols: 1 "x"; pad: 3 "Y"; }'],
  ['::marker content', 'li::marker { content: "Write to help@evil.example " }'],
  ['a counter drawn in letters', '.a::before { counter-reset: c 8; content: counter(c, lower-alpha) }'],
  ['a counter in a custom style', '.a::before { content: counter(c, phish) }'],
  ['a symbols() counter', 'li { list-style-type: symbols(cyclic "Hi") }'],
  ['string-set', 'h1 { string-set: title "Session expired" }'],
  ['a text-overflow string', '.a { overflow: hidden; text-overflow: "Click here" }'],
  ['a hyphenate-character string', '.a { hyphens: auto; hyphenate-character: "Call us" }'],
  ['a prefixed hyphenate-character', '.a { -webkit-hyphenate-character: "x" }'],
  ['a text-emphasis string', '.a { text-emphasis: "!" red }'],
];

describe('security: tenant stylesheets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('may not draw text of their own', () => {
    it.each(TEXT_VECTORS)('refuses %s with 422 and changes nothing', async (_name, customCss) => {
      const instance = await createInstance(t, { hosts: [host()], customCss: '.kept { color: red }' });
      const admin = await createUser(t, { instanceId: instance.id, role: Role.InstanceAdmin });
      const res = await t.http().post('/api/Instance').set('Authorization', `Bearer ${admin.token}`).send({ customCss });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(refused(expect.stringMatching(/^VALIDATION\.CUSTOM_CSS\.(TEXT|CONTENT)$/) as unknown as string));
      const after = await t.http().get(`/api/Instance/${instance.code}`).set('Authorization', `Bearer ${admin.token}`).expect(200);
      expect(after.body.customCss).toBe('.kept { color: red }');
    });

    it('still accepts lists, counters and quotes that draw numbers, bullets or the language’s own quotation marks', async () => {
      const admin = await createUser(t, { instanceId: (await createInstance(t, { hosts: [host()] })).id, role: Role.InstanceAdmin });
      const customCss = [
        'ol { list-style: decimal inside } ul { list-style: square url(/assets/dot.png) outside } .b { list-style-type: none }',
        'details > summary { list-style-type: disclosure-closed } h2 { counter-increment: h } h2::before { content: counter(h, decimal-leading-zero) }',
        'q { quotes: auto } blockquote { quotes: none } q::before { content: open-quote } .t { text-overflow: ellipsis; hyphenate-character: auto }',
      ].join('\n');
      const res = await t.http().post('/api/Instance').set('Authorization', `Bearer ${admin.token}`).send({ customCss });
      expect(res.status).toBe(200);
      expect(res.body.customCss).toBe(customCss);
    });

    it('leaves stored CSS that draws text out of the served stylesheet, whole', async () => {
      for (const [, customCss] of TEXT_VECTORS) {
        const h = host();
        await createInstance(t, { hosts: [h], color: '228be6', accent: '7950f2', customCss: `.brand { font-weight: 700 }\n${customCss}` });
        const res = await t.http().get('/instance/styles.css').set('Host', h).expect(200);
        expect(res.text).toContain('--instance-color: #228be6;');
        expect(res.text).not.toContain('.brand');
      }
    });
  });
});
