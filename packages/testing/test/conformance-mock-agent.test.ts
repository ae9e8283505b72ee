import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import { undiciDrivers } from '@jwe-transport/test-support/client-drivers/undici';
import { jweInterceptor } from '@jwe-transport/undici-interceptor';
import * as undici from 'undici';
import { mockAgentPeer } from './support/conformance-peers.js';

// undici's request() and fetch() through the whole client conformance suite against the same
// handlers in createJweMockAgent.
for (const driver of undiciDrivers('undici 7', undici, jweInterceptor))
  clientConformance(driver, mockAgentPeer);
