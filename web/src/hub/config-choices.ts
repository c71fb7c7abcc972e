/** The choices of a session's select option, flat (ACP allows flat lists or groups). Pure. */
import type { SessionConfigOption } from '@agentclientprotocol/sdk';
import { arr, rec, str } from '../wire.js';

export interface Choice {
  value: string;
  name: string;
}

/** Flat choices of a select option. */
export function choicesOf(opt: SessionConfigOption): Choice[] {
  if (opt.type !== 'select') return [];
  return arr(opt.options).flatMap((o) => {
    const r = rec(o);
    if (!r) return [];
    if (Array.isArray(r['options']))
      return arr(r['options']).flatMap((x) =>
        str(rec(x)?.['value']) ? [{ value: str(rec(x)?.['value']) ?? '', name: str(rec(x)?.['name']) ?? '' }] : [],
      );
    const value = str(r['value']);
    return value ? [{ value, name: str(r['name']) ?? value }] : [];
  });
}
