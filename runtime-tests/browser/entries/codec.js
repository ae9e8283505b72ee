// Page entry: the codec's browser build alone (see scenarios/codec.js).
import { runCodecScenarios } from '../../scenarios/codec.js';
import { publish } from '../../scenarios/kit.js';

publish('codec', runCodecScenarios);
