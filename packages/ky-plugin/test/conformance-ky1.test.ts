import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import { streamedRetryConformance } from '@jwe-transport/test-support/client-conformance/streamed-retry';
import ky from 'ky';
import { kyDriver } from './helpers/ky-driver.js';

clientConformance(kyDriver('ky 1.x', ky));
streamedRetryConformance(kyDriver('ky 1.x', ky));
