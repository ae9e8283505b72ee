// Builds dist/live.html, the live view `jwe-transport proxy --ui` serves: one file with its
// script and style inline, allowed by hash, and a policy whose only connection is back to the
// origin that served it (the proxy's own port), for the exchanges it streams.
import { assertInlineSafe, bundle, hash, readStyle, writePage } from './build-page.mjs';

const script = assertInlineSafe(await bundle('src/live.ts'), 'The live script');
const style = await readStyle();
const csp = [
  "default-src 'none'",
  "connect-src 'self'",
  `script-src ${hash(script)}`,
  `style-src ${hash(style)}`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
await writePage({ template: 'live-page.html', out: 'live.html', csp, style, script });
