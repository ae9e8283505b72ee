/** ANSI styling that switches itself off when the stream is not a terminal (or NO_COLOR is set). */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

const COLOURED: Style = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
};

const identity = (text: string) => text;
const PLAIN: Style = {
  bold: identity,
  dim: identity,
  red: identity,
  green: identity,
  yellow: identity,
  cyan: identity,
};

export function styleFor(
  stream: { isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
  noColorFlag: boolean,
): Style {
  if (noColorFlag || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return PLAIN;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return COLOURED;
  return stream.isTTY === true ? COLOURED : PLAIN;
}
