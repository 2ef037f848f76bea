// npm run dev:idp: a real OpenID provider on http://127.0.0.1:4000/good with the test users of
// scripts/idp/identity-provider.mts (log in as alice, bob, carol or dave, any password), for trying sign-in
// with `npm start`. Point the app at it with the AUTH_PROVIDERS line this prints.
//   --port N             where to listen (default 4000; 0 picks a free port)
//   --redirect-uri URI   the app's callback, repeatable (default http://localhost:3000/auth/callback/dev-idp and 127.0.0.1)
//   --test-tenants       also the misbehaving tenants the tests use
// IDP_CLOCK_OFFSET_SECONDS shifts this process's clock (the tests use it for a provider whose tokens are already expired).
import { CLIENT_ID, CLIENT_SECRET, TEST_TENANTS, TEST_USERS, startIdentityProvider } from './idp/identity-provider.mts';

const offset = Number(process.env.IDP_CLOCK_OFFSET_SECONDS ?? 0) * 1000;
if (offset) {
  const realNow = Date.now.bind(Date);
  Date.now = () => realNow() + offset;
}

const args = process.argv.slice(2);
const valuesOf = (flag: string) => args.flatMap((arg, i) => (arg === flag && args[i + 1] ? [args[i + 1]] : []));
const port = Number(valuesOf('--port')[0] ?? 4000);
const redirectUris = valuesOf('--redirect-uri');
if (!redirectUris.length) redirectUris.push('http://localhost:3000/auth/callback/dev-idp', 'http://127.0.0.1:3000/auth/callback/dev-idp');

const idp = await startIdentityProvider({ port, redirectUris, tenants: args.includes('--test-tenants') ? TEST_TENANTS : ['good'] });
const provider = { name: 'dev-idp', label: 'Dev IdP', issuer: `${idp.base}/good`, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
console.log(JSON.stringify({ ready: true, base: idp.base }));
console.log(`OpenID provider at ${idp.base}/good; users: ${Object.keys(TEST_USERS).join(', ')} (any password)`);
console.log(`start the app with: AUTH_PROVIDERS='${JSON.stringify([provider])}' npm start`);

const stop = () => void idp.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
