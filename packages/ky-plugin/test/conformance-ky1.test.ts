import { fileFromPath, wasDecrypted } from '@jwe-transport/client-core';
import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import { streamedRetryConformance } from '@jwe-transport/test-support/client-conformance/streamed-retry';
import { kyDriver } from '@jwe-transport/test-support/client-drivers/ky';
import ky from 'ky';
import { jwe } from '../src/index.js';

const driver = kyDriver('ky 1.x', ky, { jwe, wasDecrypted, fileFromPath });
clientConformance(driver);
streamedRetryConformance(driver);
