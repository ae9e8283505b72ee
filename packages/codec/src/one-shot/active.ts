import { backend } from '#backend';
import { contextFor } from './context.js';

/** The context of the back end this build was made for (`package.json` `imports`, `#backend`). */
export const active = contextFor(backend);
