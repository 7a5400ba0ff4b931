/**
 * A real OpenID Connect provider on loopback for the end-to-end tests (the `oidc-provider` package, with its
 * development login and consent pages): authorisation code flow with PKCE, state and nonce, as any
 * standards-compliant provider does. Started by playwright.config.ts.
 */
import Provider from 'oidc-provider';

const port = Number(process.env.OIDC_PORT ?? 3299);
const issuer = `http://127.0.0.1:${port}`;
const redirectUris = (process.env.OIDC_REDIRECT_URIS ?? '').split(',').filter((uri) => uri !== '');

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'medaptive-e2e',
      client_secret: 'medaptive-e2e-secret-of-sufficient-length',
      redirect_uris: redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  // Any login name is an account: <name>@idp.test.
  findAccount: async (_context, id) => ({
    accountId: id,
    claims: async () => ({ sub: id, email: `${id}@idp.test`, email_verified: true, name: `IdP ${id}` }),
  }),
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  pkce: { required: () => true },
  features: { devInteractions: { enabled: true } },
  cookies: { keys: ['local-openid-provider-cookie-key-for-tests'] },
});
provider.proxy = false;

provider.listen(port, () => {
  process.stdout.write(`local OpenID provider at ${issuer}\n`);
});
