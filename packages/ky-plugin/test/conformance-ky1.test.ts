import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import ky from 'ky';
import { fileFromPath } from '@jwe-transport/client-core';
import { kyDriver } from '@jwe-transport/test-support/client-drivers/ky';
import { jwe, wasDecrypted } from '../src/index.js';

clientConformance(kyDriver('ky 1.x', ky, { jwe, wasDecrypted, fileFromPath }));
