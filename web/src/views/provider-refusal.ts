/**
 * A refused provider save in words (the settings form's toast): the hub's 400 names each field and
 * why (docs/CLIENT-PROTOCOL.md errors: `details.issues[{path, message}]`). Pure.
 */
import { t } from '../i18n.js';
import { RestError } from '../net/rest.js';
import { arr, rec, str } from '../wire.js';

/** The form's labels for the fields the hub names in a 400 (`body.baseUrl` → "Base URL"). */
const FIELD_LABELS = {
  providerId: 'providerId',
  name: 'providerName',
  apiType: 'apiType',
  baseUrl: 'baseUrl',
  apiKey: 'apiKey',
  models: 'models',
  enabled: 'enabled',
} as const;

/**
 * What a refused save says: each field the hub names with its reason ("Base URL: baseUrl must be
 * an http:// or https:// URL"), not "400 Request does not match the schema"; else the hub's message.
 */
export function refusalText(err: unknown): string {
  if (!(err instanceof RestError)) return (err as Error).message;
  const issues = arr(rec(rec(rec(err.body)?.['error'])?.['details'])?.['issues']).flatMap((i) => {
    const message = str(rec(i)?.['message']);
    if (!message) return [];
    const field = (str(rec(i)?.['path']) ?? '').split('.')[1];
    const label = field !== undefined && field in FIELD_LABELS ? t(FIELD_LABELS[field as keyof typeof FIELD_LABELS]) : field;
    return [label ? `${label}: ${message}` : message];
  });
  return issues.length > 0 ? issues.join('; ') : err.message;
}
