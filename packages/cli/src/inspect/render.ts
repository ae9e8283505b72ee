import type { Diagnostic, InspectReport, Verification } from '@jwe-transport/inspect-core';
import type { Style } from '../output/style.js';

function marker(severity: Diagnostic['severity'], style: Style): string {
  if (severity === 'error') return style.red('error  ');
  if (severity === 'warning') return style.yellow('warning');
  return style.cyan('info   ');
}

function renderVerification(verification: Verification, keySource: string, style: Style): string {
  let text = `\n${style.bold(`Verification (keys from ${keySource})`)}\n`;
  if (verification.ok)
    text += `  ${style.green('verified')}: the tag authenticates (${verification.authenticatedAs})\n`;
  else if (verification.authenticatedAs)
    text += `  ${style.yellow('authentic, but not standard')}: ${verification.authenticatedAs}\n`;
  else text += `  ${style.red('did not verify')}\n`;
  for (const finding of verification.findings) text += `  - ${finding}\n`;
  if (verification.ruledOut.length > 0) {
    text += `  ${style.bold('Ruled out:')}\n`;
    for (const cause of verification.ruledOut) text += `    - ${cause}\n`;
  }
  if (verification.remaining.length > 0) {
    text += `  ${style.bold('Still possible:')}\n`;
    for (const cause of verification.remaining) text += `    - ${cause}\n`;
  }
  if (verification.payload) {
    const payload = verification.payload;
    text += `  ${style.bold('Content:')} ${payload.type}`;
    if (payload.type === 'json' || payload.type === 'text') {
      const body = payload.type === 'json' ? JSON.stringify(payload.value, null, 2) : String(payload.value);
      text += `\n${body.replace(/^/gm, '    ')}\n`;
    } else {
      text += `, ${String(payload.description ?? '')} ${String(payload.size)} bytes\n`;
    }
  }
  return text;
}

export function renderInspectReport(
  report: InspectReport,
  keySource: string | undefined,
  style: Style,
): string {
  let text = `${style.bold(`Envelope (${report.serialization})`)}\n`;
  const header = report.protectedHeader;
  if (header.present) {
    const encoding = header.encoding === 'other' ? '' : ` (${header.encoding} encoding)`;
    text += `  protected header  ${JSON.stringify(header.decoded) ?? '(undecodable)'}${encoding}\n`;
  } else {
    text += `  protected header  ${style.yellow('missing')}\n`;
  }
  const unprotected = Object.keys(report.header).filter(
    (name) => !(header.decoded && name in (header.decoded as object)),
  );
  if (unprotected.length > 0) text += `  unprotected       ${unprotected.join(', ')}\n`;
  text += `  kid               ${report.kid === null ? style.dim('none') : `"${report.kid}" (selects the key; not authenticated)`}\n`;
  text += `\n${style.bold('Parts')}\n`;
  for (const part of report.parts) {
    const bytes = part.bytes === null ? '' : `  ${String(part.bytes).padStart(10)} bytes`;
    text += `  ${part.name.padEnd(11)} ${String(part.chars).padStart(10)} chars${bytes}\n`;
  }
  text += `\n${style.bold('Diagnostics')}\n`;
  if (report.diagnostics.length === 0)
    text += `  ${style.green('none')}: the envelope has the form the service uses.\n`;
  for (const diagnostic of report.diagnostics) {
    text += `  ${marker(diagnostic.severity, style)} ${style.dim(diagnostic.code)}: ${diagnostic.message}\n`;
  }
  if (report.verification && keySource) text += renderVerification(report.verification, keySource, style);
  return text;
}
