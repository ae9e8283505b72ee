import { fileFromPath, wasDecrypted } from '@jwe-transport/client-core';
import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import { streamedRetryConformance } from '@jwe-transport/test-support/client-conformance/streamed-retry';
import type { KyLike } from '@jwe-transport/test-support/client-drivers/ky';
import { kyDriver } from '@jwe-transport/test-support/client-drivers/ky';
import ky2 from 'ky2';
import { jwe } from '../src/index.js';

// ky 2.x needs Node >= 22: CI's Node 24 pass runs this file.
const driver = kyDriver('ky 2.x', ky2 as unknown as KyLike, { jwe, wasDecrypted, fileFromPath });
clientConformance(driver);
streamedRetryConformance(driver);
