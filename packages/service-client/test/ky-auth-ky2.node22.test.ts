import { createTokenSession } from '@jwe-transport/service-client/auth';
import { kyAuth } from '@jwe-transport/service-client/ky';
import ky2 from 'ky2';
import { expect, it } from 'vitest';
import { authSuite, type KyUnderTest } from './ky-auth-suite.js';

// ky 2.x (Node >= 22): one state object per hook; the forced retry goes through beforeRetry.
authSuite('ky 2.x', ky2 as unknown as KyUnderTest);

it('kyAuth() options and ky.retry fit ky 2.x types without casts', () => {
  const session = createTokenSession({ login: async () => ({ access_token: 'a', refresh_token: 'r' }) });
  const api = ky2.create({}).extend(kyAuth({ session, ky: ky2 }));
  expect(typeof api.get).toBe('function');
});
