// Page entry: ky 1 with @jwe-transport/ky-plugin (see scenarios/ky.js).
import { jwe } from '@jwe-transport/ky-plugin';
import ky from 'ky';
import { publish } from '../../scenarios/kit.js';
import { runKyScenarios } from '../../scenarios/ky.js';

publish('ky-plugin', (config) => runKyScenarios(ky, jwe, 'prefixUrl', config));
