import { fileFromPath } from '@jwe-transport/client-core';
import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import { kyDriver } from '@jwe-transport/test-support/client-drivers/ky';
import ky from 'ky';
import { jwe, wasDecrypted } from '../src/index.js';

clientConformance(kyDriver('ky 1.x', ky, { jwe, wasDecrypted, fileFromPath }));
