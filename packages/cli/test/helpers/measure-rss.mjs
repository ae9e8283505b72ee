// Runs the built CLI in this process and reports its peak resident memory on exit, so that a
// test can check memory stays bounded without depending on /usr/bin/time being installed.
process.on('exit', () => {
  process.stderr.write(`\nMAX_RSS_KB=${process.resourceUsage().maxRSS}\n`);
});
await import(new URL('../../dist/bin.js', import.meta.url).href);
