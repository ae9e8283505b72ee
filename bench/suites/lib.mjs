// Helpers shared by the suites: timing loops, formatting and the report line.

/**
 * Runs `fn` repeatedly for about `ms` milliseconds (after a warm-up). Returns calls per wall-clock
 * second and calls per CPU second of the whole process (all threads, so work a library hands to
 * libuv's thread pool or to worker threads counts too). CPU time barely moves when other
 * processes load the machine; wall time does.
 */
export async function measure(fn, ms = 1500) {
  const warmUntil = performance.now() + Math.min(300, ms / 4);
  while (performance.now() < warmUntil) await fn();
  let count = 0;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    await fn();
    count++;
    now = performance.now();
  }
  const cpu = process.cpuUsage(cpuStart);
  return { wall: count / ((now - start) / 1000), cpu: count / ((cpu.user + cpu.system) / 1e6) };
}

export async function opsPerSecond(fn, ms = 1500) {
  return (await measure(fn, ms)).wall;
}

/** The middle value of `xs` (the upper one of an even count). */
export const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/**
 * The median of the per-round ratios `ours[i] / reference[i]`: each pair of rounds ran back to
 * back, so a change in the machine's load between rounds cancels out of it.
 */
export const pairedRatio = (ours, reference) => median(ours.map((value, round) => value / reference[round]));

/** Round `i`'s order of interleaved cases: reversed every other round, so that no case always follows the same one. */
export const alternating = (cases, i) => (i % 2 === 0 ? cases : [...cases].reverse());

/**
 * Interleaves two measurements in rounds so that machine noise hits both alike. Returns the
 * median wall-clock rates and the median CPU-time rates of both (calls per second).
 */
export async function compare(ours, reference, { ms = 1500, rounds = 3 } = {}) {
  const a = [];
  const b = [];
  for (let i = 0; i < rounds; i++) {
    a.push(await measure(ours, ms / rounds));
    b.push(await measure(reference, ms / rounds));
  }
  return {
    ours: median(a.map((m) => m.wall)),
    reference: median(b.map((m) => m.wall)),
    oursCpu: median(a.map((m) => m.cpu)),
    referenceCpu: median(b.map((m) => m.cpu)),
  };
}

export const formatOps = (n) => `${n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1)} ops/s`;
export const formatMBps = (bytesPerSecond) => `${(bytesPerSecond / 1e6).toFixed(0)} MB/s`;
export const formatRatio = (r) => `${r.toFixed(r >= 10 ? 0 : r >= 1 ? 1 : 2)}x`;
export const formatMiB = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
export const formatSeconds = (s) => `${s.toFixed(s >= 10 ? 1 : 2)} s`;

/**
 * Prints the suite's report as the last stdout line, where bench/run.mjs reads it. Each row:
 * `{case, ours, reference, ratio, cpu_ratio, target, met, notes}`. `ratio` is the wall-time
 * ratio and `cpu_ratio` the CPU-time ratio (both "how many times better ours is" unless the
 * target says otherwise); `met` is true, false, or absent when the row has no target. Values
 * other than `met` are strings; missing ones print empty.
 */
export function report(title, rows) {
  process.stdout.write(`\n${JSON.stringify({ title, rows })}\n`);
}
