// The README states the delivery-attempt count in several places; each must be the code's default.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { DEFAULT_DELIVERY_ATTEMPTS } from '../src/workflow/config.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

it('states one delivery-attempt count, the default the service uses', () => {
  const stated = [...readme.matchAll(/(\d+)\s+attempts\b/g)].map((match) => Number(match[1]));
  const fromTable = /`WEBHOOK_DELIVERY_ATTEMPTS`\s*\|\s*`(\d+)`/.exec(readme)?.[1];
  expect(stated.length).toBeGreaterThanOrEqual(2);
  expect(fromTable).toBeDefined();
  expect(new Set([...stated, Number(fromTable)])).toEqual(new Set([DEFAULT_DELIVERY_ATTEMPTS]));
});
