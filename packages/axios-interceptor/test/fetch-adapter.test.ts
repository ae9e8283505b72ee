import { axiosSuite } from './helpers/axios-suite.js';

axiosSuite('fetch');
