// A real OpenID provider (oidc-provider) for the tests and for trying sign-in by hand (npm run dev:idp).
// Each tenant is one provider with an issuer of its own, `<base>/<tenant>`, all on one port. Besides the
// well-behaved `good` one, the tests get tenants that misbehave in one controlled way each, so the app's
// checks meet real tokens from a real provider, never hand-made ones.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ClientMetadata, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

export interface TestUser {
  email?: string;
  emailVerified?: boolean;
  givenName: string;
  familyName: string;
}

/** Log in at the provider with one of these as the login (any password). */
export const TEST_USERS: Record<string, TestUser> = {
  alice: { email: 'alice@example.com', emailVerified: true, givenName: 'Alice', familyName: 'Anders' },
  bob: { email: 'bob@example.org', emailVerified: true, givenName: 'Bob', familyName: 'Brown' },
  carol: { givenName: 'Carol', familyName: 'Nomail' },
  dave: { email: 'dave@example.com', emailVerified: false, givenName: 'Dave', familyName: 'Unverified' },
};

export const CLIENT_ID = 'parley';
export const CLIENT_SECRET = 'parley-dev-secret';
/** Registered at `wrong-aud` only: that tenant issues its tokens to this client instead of `parley`. */
const OTHER_CLIENT_ID = 'someone-else';

/**
 * good: behaves. wrong-key: signs with a key it does not publish. wrong-nonce: answers another nonce than
 * asked. wrong-aud: issues the tokens to another client. short-code: its codes live one second.
 * wrong-iss (no provider of its own): a discovery document that claims an issuer whose tokens it does not issue.
 */
export const TEST_TENANTS = ['good', 'wrong-key', 'wrong-nonce', 'wrong-aud', 'short-code'] as const;
type Tenant = (typeof TEST_TENANTS)[number];

export interface IdentityProviderOptions {
  port: number;
  host?: string;
  redirectUris: string[];
  /** Only `good` (npm run dev:idp) or every test tenant. */
  tenants?: readonly Tenant[];
}

export interface RunningIdentityProvider {
  base: string;
  close: () => Promise<void>;
}

const signingKey = () => ({
  ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
  kid: randomBytes(6).toString('hex'),
  use: 'sig',
  alg: 'RS256',
});
const publicJwks = (keys: Record<string, unknown>[]) => ({ keys: keys.map(({ kty, n, e, kid, use, alg }) => ({ kty, n, e, kid, use, alg })) });

function configuration(tenant: Tenant, redirectUris: string[], key: Record<string, unknown>): Configuration {
  const client = (clientId: string): ClientMetadata => ({
    client_id: clientId,
    client_secret: CLIENT_SECRET,
    redirect_uris: redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
  return {
    clients: tenant === 'wrong-aud' ? [client(CLIENT_ID), client(OTHER_CLIENT_ID)] : [client(CLIENT_ID)],
    jwks: { keys: [key as never] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'] },
    features: { devInteractions: { enabled: true }, revocation: { enabled: true }, introspection: { enabled: true } },
    pkce: { required: () => true },
    ttl: { AuthorizationCode: tenant === 'short-code' ? 1 : 60, AccessToken: 3600, IdToken: 3600, Interaction: 600, Session: 3600, Grant: 3600 },
    findAccount: (_ctx, id) => {
      const user = TEST_USERS[id];
      if (!user) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          given_name: user.givenName,
          family_name: user.familyName,
          name: `${user.givenName} ${user.familyName}`,
          ...(user.email ? { email: user.email, email_verified: user.emailVerified ?? false } : {}),
        }),
      };
    },
    // No consent screen: the test users grant what is asked.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope([...(ctx.oidc.requestParamScopes ?? [])].join(' '));
      await grant.save();
      return grant;
    },
  };
}

/** Starts the provider; the port may be 0 (a free one). */
export async function startIdentityProvider(options: IdentityProviderOptions): Promise<RunningIdentityProvider> {
  const host = options.host ?? '127.0.0.1';
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port, host, resolve));
  const base = `http://${host}:${(server.address() as AddressInfo).port}`;
  const goodKey = signingKey();
  const providers = new Map<string, Provider>();
  for (const tenant of options.tenants ?? ['good']) {
    const key = tenant === 'wrong-key' ? signingKey() : goodKey;
    const provider = new Provider(`${base}/${tenant}`, configuration(tenant, options.redirectUris, key));
    provider.on('server_error', (_ctx, err) => console.error(`idp ${tenant}: ${err.message}`));
    providers.set(tenant, provider);
  }

  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', base);
    const [, tenant = ''] = url.pathname.split('/');
    if (tenant === 'wrong-iss' && providers.has('good') && url.pathname === '/wrong-iss/.well-known/openid-configuration') {
      void claimAnotherIssuer(base, res);
      return;
    }
    const provider = providers.get(tenant);
    if (!provider) {
      res.writeHead(404).end();
      return;
    }
    if (tenant === 'wrong-key' && url.pathname === '/wrong-key/jwks') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(publicJwks([goodKey])));
      return;
    }
    if (tenant === 'wrong-nonce' && url.pathname === '/wrong-nonce/auth') url.searchParams.set('nonce', 'not-the-one-asked-for');
    if (tenant === 'wrong-aud' && url.pathname === '/wrong-aud/auth') url.searchParams.set('client_id', OTHER_CLIENT_ID);
    if (tenant === 'wrong-aud' && url.pathname === '/wrong-aud/token') {
      req.headers.authorization = `Basic ${Buffer.from(`${OTHER_CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
    }
    const full = url.pathname + url.search;
    Object.assign(req, { originalUrl: full, url: full.slice(tenant.length + 1) || '/' });
    void provider.callback()(req, res);
  });

  return {
    base,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** good's metadata, with the issuer named as wrong-iss: its ID tokens then name an issuer other than the configured one. */
async function claimAnotherIssuer(base: string, res: http.ServerResponse): Promise<void> {
  try {
    const metadata = (await (await fetch(`${base}/good/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    const forged = { ...metadata, issuer: `${base}/wrong-iss`, authorization_response_iss_parameter_supported: false };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(forged));
  } catch {
    res.writeHead(502).end();
  }
}
