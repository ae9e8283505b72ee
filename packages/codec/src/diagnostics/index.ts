/**
 * `@jwe-transport/codec/diagnostics`: the `jwe-transport:open` and `jwe-transport:seal`
 * TracingChannels. Subscribers need only the channel names (also exported by the codec root) and
 * `node:diagnostics_channel`; `traceOpen` and `traceSeal` are for packages that open or seal
 * envelopes on behalf of their users (the server and client cores, adapters of your own).
 * @packageDocumentation
 */
export {
  type JweChannelName,
  type JweTraceContext,
  type JweTraceOutcome,
  OPEN_CHANNEL,
  SEAL_CHANNEL,
  TRACE_KID_MAX,
} from './channels.js';
export {
  byteSize,
  kidNotingResolver,
  type TraceFacts,
  type TraceSide,
  traceKid,
  traceOpen,
  traceSeal,
} from './trace.js';
