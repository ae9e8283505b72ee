import { createTokenSession } from '@jwe-transport/service-client/auth';
import { kyAuth } from '@jwe-transport/service-client/ky';
import ky from 'ky';
import { expect, it } from 'vitest';
import { authSuite, type KyUnderTest } from './ky-auth-suite.js';

// ky 1.x: positional hook arguments; beforeRequest runs again on the forced retry.
authSuite('ky 1.x', ky as unknown as KyUnderTest);

it('kyAuth() options and ky.retry fit ky 1.x types without casts', () => {
  const session = createTokenSession({ login: async () => ({ access_token: 'a', refresh_token: 'r' }) });
  const api = ky.create({}).extend(kyAuth({ session, ky }));
  expect(typeof api.get).toBe('function');
});
