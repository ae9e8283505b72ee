import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import { streamedRetryConformance } from '@jwe-transport/test-support/client-conformance/streamed-retry';
import ky2 from 'ky2';
import { kyDriver } from './helpers/ky-driver.js';
import type { KyLike } from './helpers/ky-suite.js';

// ky 2.x needs Node >= 22: CI's Node 24 pass runs this file.
clientConformance(kyDriver('ky 2.x', ky2 as unknown as KyLike));
streamedRetryConformance(kyDriver('ky 2.x', ky2 as unknown as KyLike));
