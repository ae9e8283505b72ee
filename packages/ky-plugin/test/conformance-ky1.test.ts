import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import ky from 'ky';
import { kyDriver } from './helpers/ky-driver.js';

clientConformance(kyDriver('ky 1.x', ky));
