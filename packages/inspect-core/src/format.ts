import type { HeaderSource } from '@jwe-transport/codec';

export function formatSize(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} byte${bytes === 1 ? '' : 's'}`;
  if (bytes < 1024) return exact;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${exact} (${value.toFixed(1)} ${units[unit]})`;
}

/** Explains a header source other than the envelope's own protected member, or nothing. */
export function headerSourceNote(source: HeaderSource): string | undefined {
  switch (source) {
    case 'protected':
      return undefined;
    case 'none':
      return 'The envelope has no protected header; it authenticated with an empty AAD, as RFC 7516 defines for that case.';
    case 'assumed-compact':
      return (
        'The envelope has no protected header, but its tag covers {"alg":"dir","enc":"A128CBC-HS256"}: ' +
        'the sender computed the tag over a header it then left out of the envelope.'
      );
    case 'assumed-spaced':
      return (
        'The envelope has no protected header, but its tag covers {"alg": "dir", "enc": "A128CBC-HS256"} ' +
        '(with spaces, as Python writes it): the sender computed the tag over a header it then left out.'
      );
  }
}
