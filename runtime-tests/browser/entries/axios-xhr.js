// Page entry: axios on its xhr adapter with @jwe-transport/axios-interceptor (see scenarios/axios.js).
import { useJwe } from '@jwe-transport/axios-interceptor';
import { runAxiosScenarios } from '../../scenarios/axios.js';
import { publish } from '../../scenarios/kit.js';

publish('axios-xhr', (config) => runAxiosScenarios(useJwe, 'xhr', config));
