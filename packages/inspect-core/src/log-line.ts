import { isEnvelopeObject } from './classify-shapes.js';

/*
 * Finds an envelope inside a line of a log: `... body={"protected":...,"tag":"..."} status=400`,
 * the same with the JSON escaped inside a quoted string (`"body":"{\"iv\":...}"`), or a compact
 * JWE among other words. Returns the envelope's text, or undefined when the line holds none.
 */

const COMPACT_TOKEN = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/;

/** The JSON object that starts at `start`, by brace matching that respects strings; undefined if it never closes. */
function objectAt(text: string, start: number): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return undefined;
}

function envelopeJsonIn(text: string): string | undefined {
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1)) {
    const candidate = objectAt(text, at);
    if (candidate === undefined) continue;
    try {
      if (isEnvelopeObject(JSON.parse(candidate))) return candidate;
    } catch {
      // Not JSON from this brace; try the next one.
    }
  }
  return undefined;
}

export function envelopeInLogLine(text: string): string | undefined {
  const direct = envelopeJsonIn(text);
  if (direct) return direct;
  // JSON escaped inside a JSON string, as structured loggers write a body they received as text.
  for (const [quoted] of text.matchAll(/"(?:[^"\\]|\\.)*"/g)) {
    if (!quoted.includes('{')) continue;
    let inner: unknown;
    try {
      inner = JSON.parse(quoted);
    } catch {
      continue;
    }
    const found = typeof inner === 'string' ? envelopeJsonIn(inner) : undefined;
    if (found) return found;
  }
  return COMPACT_TOKEN.exec(text)?.[0];
}
