// Page entry: axios on its fetch adapter with @jwe-transport/axios-interceptor (see scenarios/axios.js).
import { useJwe } from '@jwe-transport/axios-interceptor';
import { runAxiosScenarios } from '../../scenarios/axios.js';
import { publish } from '../../scenarios/kit.js';

publish('axios-fetch', (config) => runAxiosScenarios(useJwe, 'fetch', config));
