import type { KeyResolver } from '@jwe-transport/codec';
import { usageError } from '../cli-error.js';
import { type CommandContext, keysFor } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { writeText } from '../io.js';
import type { KeySet } from '../keys.js';
import { ownHosts } from '../proxy/admission.js';
import type { Exchange } from '../proxy/exchange.js';
import { HarLog } from '../proxy/har-log.js';
import { exchangeLine, type LineOptions, verboseBlock } from '../proxy/line.js';
import { LIVE_PREFIX, LiveView } from '../proxy/live-view.js';
import { type RunningProxy, startProxy } from '../proxy/server.js';
import { isLoopback, type ProxySettings, proxySettings } from '../proxy/settings.js';
import { pickKey } from './encrypt.js';
import { openBrowser } from './web.js';

/** Every key of the list, by kid; a lone key opens whatever kid an envelope names (the kid is not authenticated). */
function resolverOf(keys: KeySet): KeyResolver {
  return (kid) => {
    const named = keys.entries.find((entry) => entry.kid === kid);
    if (named) return named.key;
    return keys.entries.length === 1 ? keys.entries[0]!.key : undefined;
  };
}

async function banner(
  ctx: CommandContext,
  settings: ProxySettings,
  url: string,
  kid: string | undefined,
): Promise<void> {
  const style = ctx.errStyle;
  const upstream = settings.upstream.origin;
  if (settings.mode === 'seal') {
    await ctx.note(
      `jwe-transport proxy (sealing): ${url} -> ${upstream}${kid === undefined ? '' : `, kid ${kid}`}. ` +
        'Send plain JSON or uploads to it; answers come back opened (marked x-jwe-decrypted).',
    );
  } else {
    await ctx.note(
      `jwe-transport proxy (watching): ${url} -> ${upstream}. Bytes pass untouched; copies of the envelopes are opened on the side.`,
    );
  }
  if (!isLoopback(settings.listen)) {
    await writeText(
      ctx.io.stderr,
      `${style.red(style.bold('WARNING'))}: listening on ${settings.listen}, not loopback: other machines can send ` +
        `requests through this proxy${settings.mode === 'seal' ? ', sealed with your key' : ''}. Use --listen only on a network you trust.\n`,
    );
  }
  if (settings.insecure) {
    await writeText(
      ctx.io.stderr,
      `${style.red('WARNING')}: --insecure: the upstream's TLS certificate is NOT checked. For test servers only.\n`,
    );
  }
  await ctx.note(
    'Ctrl-C stops taking new requests and waits for those in flight (Ctrl-C again cuts them off).',
  );
}

/** `proxy`: forwards to one upstream, sealing (default) or watching (`--watch`), until Ctrl-C or SIGTERM. */
export async function proxyCommand(ctx: CommandContext): Promise<ExitCode> {
  if (ctx.input !== undefined)
    throw usageError('proxy takes no input; give the upstream with --upstream URL.');
  const settings = await proxySettings(ctx.values);
  const keys = await keysFor(ctx, true);
  const seal =
    settings.mode === 'seal'
      ? pickKey(keys, ctx.values.kid)
      : { key: keys.entries[0]!.key, kid: ctx.values.kid ?? keys.entries[0]!.kid };
  const har = settings.har === undefined ? undefined : new HarLog(settings.har);
  const lineOptions: LineOptions = {
    style: ctx.style,
    insecure: settings.insecure,
    mask: ctx.values['no-mask'] !== true,
  };
  const pending = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  let running: RunningProxy | undefined;
  const live = settings.ui
    ? await LiveView.load(() => ownHosts(settings.listen, running?.port ?? -1))
    : undefined;
  const report = (exchange: Exchange) => {
    live?.publish(exchange);
    let text = exchangeLine(exchange, lineOptions);
    if (settings.verbose) {
      const block = verboseBlock(exchange, lineOptions);
      if (block !== undefined) text += `\n${block}`;
    } else if (exchange.outcome === 'failed') {
      const failure = exchange.response.failure ?? exchange.request.failure;
      if (failure) text += `\n    ${ctx.style.dim(failure.message)}`;
    }
    track(writeText(ctx.io.stdout, `${text}\n`).catch(() => {}));
    if (har)
      track(
        har
          .add(exchange)
          .catch((error) => ctx.warn(`Cannot write the HAR file: ${(error as Error).message}`)),
      );
  };
  const proxy = await startProxy(settings, { seal, resolver: resolverOf(keys) }, report, live?.route);
  running = proxy;
  await banner(ctx, settings, proxy.url, settings.mode === 'seal' ? seal.kid : undefined);
  await writeText(ctx.io.stdout, `${proxy.url}\n`);
  if (live) {
    const page = `http://127.0.0.1:${proxy.port}${LIVE_PREFIX}`;
    await ctx.note(`Live view: ${page} (only this proxy's own address may load it).`);
    if (ctx.values['no-open'] !== true) openBrowser(page, ctx.warn);
  }
  if (har) await har.flush();
  await new Promise<void>((resolve) => {
    let draining = false;
    const stop = async (drain: boolean) => {
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onTerminate);
      if (drain && proxy.inFlight > 0) {
        await ctx.note(`Draining ${proxy.inFlight} exchange(s) in flight; Ctrl-C again to cut them off.`);
        process.once('SIGINT', () => proxy.abort());
        process.once('SIGTERM', () => proxy.abort());
      }
      live?.close();
      await proxy.close(drain);
      resolve();
    };
    const onInterrupt = () => {
      if (draining) return;
      draining = true;
      void stop(true);
    };
    const onTerminate = () => {
      if (draining) return proxy.abort();
      draining = true;
      void stop(false);
    };
    process.on('SIGINT', onInterrupt);
    process.on('SIGTERM', onTerminate);
  });
  await Promise.all(pending);
  if (har) await har.flush();
  await ctx.note('Proxy stopped.');
  return EXIT.OK;
}
