import { run } from './run.js';

// exitCode rather than process.exit(): piped stdout gets flushed before the process ends.
process.exitCode = await run(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
// Standard input may still hold unread data when a command stops early; it must not keep the process alive.
process.stdin.destroy();
