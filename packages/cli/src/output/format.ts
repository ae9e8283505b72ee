// Shared with the browser inspector, so they say the same thing.
export { formatSize, headerSourceNote } from '@jwe-transport/inspect-core/internal';
